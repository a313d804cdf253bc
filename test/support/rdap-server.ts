// A loopback RDAP server (RFC 9083 answers as registries give them): `/domain/<name>` answers the
// registrar with its abuse contact nested in it (as gTLD registries do), `/ip/<address>` the network
// with its holder (registrant) and the holder's abuse contact. Counts the look-ups per path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RdapServer {
  url: string;
  hits: Map<string, number>;
  registrarAbuse: string;
  networkAbuse: string;
  close(): Promise<void>;
}

const vcard = (fields: Array<[string, string]>) => ['vcard', [['version', {}, 'text', '4.0'], ...fields.map(([k, v]) => [k, {}, 'text', v])]];

export function domainAnswer(name: string, registrarAbuse: string): Record<string, unknown> {
  return {
    rdapConformance: ['rdap_level_0', 'icann_rdap_response_profile_1', 'icann_rdap_technical_implementation_guide_1'],
    objectClassName: 'domain',
    handle: `${name.toUpperCase().replace(/\./g, '_')}-TEST`,
    ldhName: name.toUpperCase(),
    status: ['client transfer prohibited'],
    events: [{ eventAction: 'registration', eventDate: '2026-10-01T09:12:44Z' }, { eventAction: 'expiration', eventDate: '2027-10-01T09:12:44Z' }],
    nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.PARKING-HOST.EXAMPLE' }],
    entities: [
      {
        objectClassName: 'entity',
        handle: '9999',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
        vcardArray: vcard([['fn', 'Example Registrar, LLC']]),
        entities: [
          { objectClassName: 'entity', roles: ['abuse'], vcardArray: vcard([['fn', 'Abuse Contact'], ['tel', 'tel:+1.5555550100'], ['email', registrarAbuse]]) },
        ],
      },
      { objectClassName: 'entity', roles: ['registrant'], vcardArray: vcard([['fn', 'REDACTED FOR PRIVACY']]) },
    ],
  };
}

export function ipAnswer(address: string, networkAbuse: string): Record<string, unknown> {
  return {
    rdapConformance: ['rdap_level_0', 'cidr0', 'nro_rdap_profile_0'],
    objectClassName: 'ip network',
    handle: 'NET-TEST-HOSTING-1',
    startAddress: address,
    endAddress: address,
    ipVersion: address.includes(':') ? 'v6' : 'v4',
    name: 'BULLETPROOF-HOSTING-NET',
    type: 'ASSIGNED PA',
    entities: [
      {
        objectClassName: 'entity',
        handle: 'ORG-BPH1-TEST',
        roles: ['registrant'],
        vcardArray: vcard([['fn', 'Bulletproof Hosting Ltd'], ['kind', 'org']]),
        entities: [{ objectClassName: 'entity', handle: 'ABUSE-BPH1', roles: ['abuse'], vcardArray: vcard([['fn', 'Abuse desk'], ['kind', 'group'], ['email', networkAbuse]]) }],
      },
    ],
  };
}

export async function startRdapServer(registrarAbuse = 'abuse@registrar.example', networkAbuse = 'abuse@hosting.example'): Promise<RdapServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const domain = /^\/domain\/(.+)$/.exec(path);
    const ip = /^\/ip\/(.+)$/.exec(path);
    const body = domain ? domainAnswer(domain[1], registrarAbuse) : ip ? ipAnswer(ip[1], networkAbuse) : null;
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/rdap+json' }).end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rdap+json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    hits,
    registrarAbuse,
    networkAbuse,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
