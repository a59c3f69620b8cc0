import type { FocusEvent, ReactNode } from 'react';

export interface PageProps {
  /** The page's heading, shown in the toolbar; focused after each navigation. */
  title: string;
  /** Toolbar content at the inline start (a back button) and end (a language picker). */
  start?: ReactNode;
  end?: ReactNode;
  children: ReactNode;
  /** Sticky bottom area for the primary action, above the safe-area inset. */
  footer?: ReactNode;
  className?: string;
}

/** A mobile-style page: toolbar header, scrolling content, optional sticky footer. */
export function Page({ title, start, end, children, footer, className }: PageProps) {
  return (
    <div className={className ? `sg-page ${className}` : 'sg-page'}>
      <header className="sg-toolbar">
        <div className="sg-toolbar__start">{start}</div>
        <h1 className="sg-toolbar__title" tabIndex={-1} data-page-title>
          {title}
        </h1>
        <div className="sg-toolbar__end">{end}</div>
      </header>
      <main className="sg-page__content" onFocus={keepFocusClearOfBars}>
        {children}
      </main>
      {footer ? <footer className="sg-page__footer">{footer}</footer> : null}
    </div>
  );
}

/**
 * WebKit and Gecko scroll an element that gets focus into view without its scroll-margin (Chromium
 * applies it), leaving a field under the sticky toolbar or footer; scrollIntoView applies the margin
 * in every engine, and does nothing where the element is already clear of the bars.
 */
function keepFocusClearOfBars(event: FocusEvent<HTMLElement>) {
  const target = event.target;
  if (typeof target.scrollIntoView === 'function') target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}
