import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Host names are resolved again this often: a proxy's container may start later, or move.
const RESOLVE_EVERY_MS = 10_000;

/** An IPv4 peer on a dual-stack socket shows as `::ffff:a.b.c.d`. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * Whether a peer address is one of the proxies the deployment names (config `TRUSTED_PROXIES`):
 * IP addresses, CIDR ranges, and host names (a compose service such as `host`), resolved at once
 * and every 10 s. Only such a peer's `X-Forwarded-For` is believed; anyone else is the client
 * itself, whatever it claims. Nothing named: no peer is a proxy.
 */
export function trustedProxies(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const ranges = new BlockList();
  const names: string[] = [];
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const version = isIP(address);
    if (version === 0) names.push(entry);
    else if (prefix === undefined) ranges.addAddress(address, version === 6 ? 'ipv6' : 'ipv4');
    else ranges.addSubnet(address, Number(prefix), version === 6 ? 'ipv6' : 'ipv4');
  }
  let resolved = new Set<string>();
  if (names.length > 0) {
    const resolve = async () => {
      const found = await Promise.all(
        names.map((name) =>
          lookup(name, { all: true }).then(
            (addresses) => addresses.map((entry) => entry.address),
            () => [],
          ),
        ),
      );
      // A name that does not resolve right now keeps what it resolved to before.
      const next = new Set(found.flat());
      if (next.size > 0 || resolved.size === 0) resolved = next;
    };
    void resolve();
    setInterval(() => void resolve(), RESOLVE_EVERY_MS).unref();
  }
  return (address) => {
    const peer = plain(address);
    const version = isIP(peer);
    if (version === 0) return false;
    return resolved.has(peer) || ranges.check(peer, version === 6 ? 'ipv6' : 'ipv4');
  };
}
