/** The gift card illustration, inline so the first screen needs no image request. */
export function HeroIllustration() {
  return (
    <svg className="intro-hero__art" viewBox="0 0 320 200" role="img" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="intro-card" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6d3cf0" />
          <stop offset="1" stopColor="#c2367a" />
        </linearGradient>
      </defs>
      <rect x="40" y="30" width="240" height="150" rx="18" fill="url(#intro-card)" />
      <rect x="40" y="82" width="240" height="18" fill="#ffd166" opacity="0.9" />
      <rect x="150" y="30" width="18" height="150" fill="#ffd166" opacity="0.9" />
      <path d="M159 82c-14-30-52-30-44-6 5 14 30 12 44 6zm0 0c14-30 52-30 44-6-5 14-30 12-44 6z" fill="#ffd166" />
      <rect x="62" y="140" width="70" height="10" rx="5" fill="#fff" opacity="0.8" />
      <rect x="62" y="156" width="110" height="8" rx="4" fill="#fff" opacity="0.55" />
      <circle cx="262" cy="52" r="6" fill="#fff" opacity="0.7" />
      <circle cx="28" cy="170" r="5" fill="#ffd166" />
      <circle cx="300" cy="150" r="4" fill="#c2367a" />
    </svg>
  );
}
