import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/config';
import {
  AllowListError,
  checkUrl,
  classifyAddress,
  EMPTY_ALLOW_LIST,
  InvalidAddressError,
  parseAllowList,
  type EgressCategory,
} from '../../domain/investigations/egress-policy';
import { createDnsResolver, pinnedLookup } from '../../infra/crawler/dns-resolver';

/** The host of a URL exactly as the WHATWG parser (and so Chromium) sees it. */
const hostOf = (url: string) => new URL(url).hostname;

describe('crawler egress policy', () => {
  describe('classifyAddress', () => {
    const cases: Array<[string, EgressCategory, boolean]> = [
      ['127.0.0.1', 'loopback', true],
      ['127.255.255.254', 'loopback', true],
      ['10.1.2.3', 'private', true],
      ['172.16.0.1', 'private', true],
      ['172.31.255.255', 'private', true],
      ['192.168.1.1', 'private', true],
      ['169.254.169.254', 'link-local', true],
      ['100.64.0.1', 'cgnat', true],
      ['100.127.255.255', 'cgnat', true],
      ['224.0.0.1', 'multicast', true],
      ['239.255.255.250', 'multicast', true],
      ['0.0.0.0', 'unspecified', true],
      ['0.1.2.3', 'unspecified', true],
      ['255.255.255.255', 'broadcast', true],
      ['240.0.0.1', 'reserved', true],
      ['198.18.0.1', 'reserved', true],
      ['192.0.0.8', 'reserved', true],
      ['192.0.2.1', 'documentation', true],
      ['198.51.100.7', 'documentation', true],
      ['203.0.113.9', 'documentation', true],
      ['8.8.8.8', 'public', false],
      ['172.32.0.1', 'public', false],
      ['100.128.0.1', 'public', false],
      ['::', 'unspecified', true],
      ['::1', 'loopback', true],
      ['fe80::1', 'link-local', true],
      ['fe80::1%eth0', 'link-local', true],
      ['febf::1', 'link-local', true],
      ['fc00::', 'unique-local', true],
      ['fd12:3456::1', 'unique-local', true],
      ['fec0::1', 'private', true],
      ['ff02::1', 'multicast', true],
      ['::ffff:127.0.0.1', 'ipv4-mapped', true],
      ['::ffff:8.8.8.8', 'ipv4-mapped', true],
      ['::127.0.0.1', 'ipv4-mapped', true],
      ['::ffff:0:10.0.0.1', 'ipv4-mapped', true],
      ['64:ff9b::7f00:1', 'loopback', true],
      ['64:ff9b::a9fe:a9fe', 'link-local', true],
      ['64:ff9b::808:808', 'public', false],
      ['64:ff9b:1::1', 'reserved', true],
      ['2002:7f00:1::1', 'loopback', true],
      ['2002:c0a8:101::1', 'private', true],
      ['2002:808:808::1', 'public', false],
      ['2001::1', 'reserved', true],
      ['2001:db8::1', 'documentation', true],
      ['3fff::1', 'documentation', true],
      ['100::1', 'reserved', true],
      ['1::1', 'reserved', true],
      ['2606:4700:4700::1111', 'public', false],
      ['2a00:1450:4001::200e', 'public', false],
    ];
    for (const [ip, category, blocked] of cases) {
      it(`${ip} is ${category}${blocked ? ' and blocked' : ' and allowed'}`, () => {
        const c = classifyAddress(ip);
        assert.equal(c.category, category);
        assert.equal(c.blocked, blocked);
      });
    }

    it('classifies odd IPv4 spellings after WHATWG URL parsing (and directly) as the loopback they are', () => {
      for (const spelling of ['127.1', '0x7f.0.0.1', '2130706433', '0177.0.0.1', '0x7f000001', '127.0.1']) {
        const host = hostOf(`http://${spelling}/`);
        assert.equal(host, '127.0.0.1', spelling);
        assert.equal(classifyAddress(host).category, 'loopback', spelling);
        assert.equal(classifyAddress(spelling).category, 'loopback', `${spelling} given directly`);
      }
      assert.equal(hostOf('http://0/'), '0.0.0.0');
      assert.equal(classifyAddress(hostOf('http://0/')).category, 'unspecified');
      assert.equal(classifyAddress(hostOf('http://0xa9fea9fe/')).category, 'link-local');
    });

    it('classifies bracketed IPv6 hosts taken from URLs, and names the embedded IPv4 address', () => {
      assert.equal(hostOf('http://[::1]/'), '[::1]');
      assert.equal(classifyAddress(hostOf('http://[::1]/')).category, 'loopback');
      const mapped = classifyAddress(hostOf('http://[::ffff:127.0.0.1]/'));
      assert.equal(mapped.category, 'ipv4-mapped');
      assert.deepEqual(mapped.embedded, { address: '127.0.0.1', via: 'ipv4-mapped', category: 'loopback' });
      assert.equal(mapped.address, '::ffff:7f00:1');
      assert.equal(classifyAddress(hostOf('http://[fe80::]/')).category, 'link-local');
      assert.equal(classifyAddress(hostOf('http://[fc00::]/')).category, 'unique-local');
      assert.equal(classifyAddress(hostOf('http://[0:0:0:0:0:0:0:1]/')).category, 'loopback');
    });

    it('gives canonical spellings', () => {
      assert.equal(classifyAddress('0:0:0:0:0:0:0:1').address, '::1');
      assert.equal(classifyAddress('2001:DB8:0:0:1:0:0:1').address, '2001:db8::1:0:0:1');
      assert.equal(classifyAddress('[FE80::1]').address, 'fe80::1');
    });

    it('throws for host names and garbage instead of guessing', () => {
      for (const bad of ['example.com', 'localhost', '', '1.2.3.4.5', '::1::2', '256.0.0.1x']) {
        assert.throws(() => classifyAddress(bad), InvalidAddressError, bad);
      }
    });
  });

  describe('parseAllowList (SVC_SSI__ALLOW_PRIVATE_TARGETS)', () => {
    it('is empty by default and reads host, host:port, [v6]:port, v6 and CIDR entries', () => {
      assert.deepEqual(parseAllowList('').entries, []);
      assert.deepEqual(parseAllowList(undefined).entries, []);
      const list = parseAllowList(' 127.0.0.1:8080 , Fixture.Test., 10.0.0.0/8, [::1]:9000, ::1, fd00::/8 ');
      assert.deepEqual(
        list.entries.map((e) => (e.kind === 'host' ? ['host', e.host, e.port] : ['cidr', e.version, e.bits])),
        [['host', '127.0.0.1', 8080], ['host', 'fixture.test', undefined], ['cidr', 4, 8], ['host', '::1', 9000], ['host', '::1', undefined], ['cidr', 6, 8]],
      );
    });

    it('names the bad entry and why', () => {
      const cases: Array<[string, RegExp]> = [
        ['ok.test, foo bar', /entry 2 "foo bar": not a host name/],
        ['10.0.0.0/33', /entry 1 "10.0.0.0\/33": prefix length must be 0-32/],
        ['::/129', /prefix length must be 0-128/],
        ['example.com/8', /CIDR must start with a plain IPv4 or IPv6/],
        ['host:abc', /entry 1 "host:abc": the port after ":" must be a number/],
        ['host:0', /port must be 1-65535/],
        ['host:70000', /port must be 1-65535/],
        ['[example.com]:80', /brackets are only for IPv6/],
        ['1.2.3.4/8/2', /one prefix length/],
        ['http://x.test:80', /entry 1 "http:\/\/x.test:80": write the host \(and port\), not a URL/],
      ];
      for (const [value, message] of cases) assert.throws(() => parseAllowList(value), (e: unknown) => e instanceof AllowListError && message.test(e.message), value);
    });

    it('is wired into the configuration as ssi.allow_private_targets, with errors naming the variable', () => {
      assert.deepEqual(loadConfig({}).ssi.allow_private_targets.entries, []);
      const c = loadConfig({ SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1:4000' });
      assert.deepEqual(c.ssi.allow_private_targets.entries.map((e) => e.text), ['127.0.0.1:4000']);
      assert.throws(
        () => loadConfig({ SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1, no way' }),
        (e: unknown) => e instanceof ConfigError && /SVC_SSI__ALLOW_PRIVATE_TARGETS: entry 2 "no way"/.test(e.message),
      );
    });
  });

  describe('checkUrl', () => {
    const publicResolve = async (host: string): Promise<string[]> => {
      const table: Record<string, string[]> = {
        'scam.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'rebind.test': ['93.184.216.34', '127.0.0.2'],
        'metadata.test': ['169.254.169.254'],
        'mapped.test': ['::ffff:10.0.0.1'],
        'fixture.test': ['127.0.0.1'],
      };
      const answer = table[host];
      if (!answer) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return answer;
    };
    const none = { allow: EMPTY_ALLOW_LIST, resolve: publicResolve };

    it('allows a public host and answers the addresses to connect to', async () => {
      const r = await checkUrl('https://scam.test/deposit?coin=btc', none);
      assert.deepEqual(r, { allowed: true, url: 'https://scam.test/deposit?coin=btc', host: 'scam.test', port: 443, addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    });

    it('refuses other schemes, credentials and invalid URLs; accepts ws(s) unless told not to', async () => {
      for (const url of ['ftp://scam.test/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'chrome://settings']) {
        const r = await checkUrl(url, none);
        assert.equal(r.allowed, false, url);
        assert.equal(r.allowed === false && r.category, 'scheme', url);
      }
      const cred = await checkUrl('http://user:pw@scam.test/', none);
      assert.equal(cred.allowed === false && cred.category, 'credentials');
      const invalid = await checkUrl('not a url', none);
      assert.equal(invalid.allowed === false && invalid.category, 'invalid-url');
      assert.equal((await checkUrl('wss://scam.test/socket', none)).allowed, true);
      const noWs = await checkUrl('wss://scam.test/socket', { ...none, webSockets: false });
      assert.equal(noWs.allowed === false && noWs.category, 'scheme');
    });

    it('blocks every non-public literal, whatever its spelling', async () => {
      const expectations: Array<[string, EgressCategory]> = [
        ['http://127.1/', 'loopback'],
        ['http://0x7f.0.0.1/', 'loopback'],
        ['http://2130706433/', 'loopback'],
        ['http://[::1]/', 'loopback'],
        ['http://[::ffff:127.0.0.1]/', 'ipv4-mapped'],
        ['http://[fe80::]/', 'link-local'],
        ['http://[fc00::]/', 'unique-local'],
        ['http://100.64.0.1/', 'cgnat'],
        ['http://224.0.0.1/', 'multicast'],
        ['http://169.254.169.254/latest/meta-data/', 'link-local'],
        ['http://0.0.0.0:8080/', 'unspecified'],
        ['http://10.0.0.1/', 'private'],
        ['http://255.255.255.255/', 'broadcast'],
        ['ws://127.0.0.2/', 'loopback'],
      ];
      for (const [url, category] of expectations) {
        const r = await checkUrl(url, none);
        assert.equal(r.allowed, false, url);
        assert.equal(r.allowed === false && r.category, category, url);
      }
    });

    it('blocks a host if ANY resolved address is blocked (DNS rebinding), and says which', async () => {
      const r = await checkUrl('http://rebind.test/', none);
      assert.equal(r.allowed, false);
      assert.equal(r.allowed === false && r.category, 'loopback');
      assert.equal(r.allowed === false && r.address, '127.0.0.2');
      assert.match(r.allowed === false ? r.reason : '', /rebind\.test resolves to 127\.0\.0\.2/);
      const meta = await checkUrl('http://metadata.test/', none);
      assert.equal(meta.allowed === false && meta.category, 'link-local');
      const mapped = await checkUrl('http://mapped.test/', none);
      assert.equal(mapped.allowed === false && mapped.category, 'ipv4-mapped');
    });

    it('refuses hosts that do not resolve', async () => {
      const r = await checkUrl('http://nowhere.test/', none);
      assert.equal(r.allowed === false && r.category, 'unresolved');
      assert.match(r.allowed === false ? r.reason : '', /ENOTFOUND/);
      const empty = await checkUrl('http://scam.test/', { allow: EMPTY_ALLOW_LIST, resolve: async () => [] });
      assert.equal(empty.allowed === false && empty.category, 'unresolved');
    });

    it('allows exactly the allow-listed host:port, and not its neighbours (the 127.0.0.2 canary)', async () => {
      const allow = parseAllowList('127.0.0.1:4000');
      const opts = { allow, resolve: publicResolve };
      assert.equal((await checkUrl('http://127.0.0.1:4000/site', opts)).allowed, true);
      assert.equal((await checkUrl('http://127.1:4000/site', opts)).allowed, true);
      assert.equal((await checkUrl('http://fixture.test:4000/', opts)).allowed, true, 'a name resolving to the allowed address and port');
      assert.equal((await checkUrl('http://127.0.0.1:4001/', opts)).allowed, false);
      assert.equal((await checkUrl('http://127.0.0.2:4000/', opts)).allowed, false);
      assert.equal((await checkUrl('http://[::ffff:127.0.0.1]:4000/', opts)).allowed, false);
      assert.equal((await checkUrl('http://localhost:4000/', { allow, resolve: async () => ['127.0.0.1', '::1'] })).allowed, false, '::1 is not allowed');
    });

    it('allows by host name (any address it resolves to), by port-less IP, and by CIDR', async () => {
      const byName = await checkUrl('http://fixture.test:1234/', { allow: parseAllowList('fixture.test'), resolve: publicResolve });
      assert.equal(byName.allowed, true);
      assert.equal(byName.allowed && byName.allowedBy, 'fixture.test');
      const cidr = { allow: parseAllowList('127.0.0.0/30, fd00::/8'), resolve: publicResolve };
      assert.equal((await checkUrl('http://127.0.0.3:9/', cidr)).allowed, true);
      assert.equal((await checkUrl('http://127.0.0.4:9/', cidr)).allowed, false);
      assert.equal((await checkUrl('http://[fd00::1]/', cidr)).allowed, true);
      assert.equal((await checkUrl('http://[fc00::1]/', cidr)).allowed, false);
      const v6 = { allow: parseAllowList('[::1]:8080'), resolve: publicResolve };
      assert.equal((await checkUrl('http://[::1]:8080/', v6)).allowed, true);
      assert.equal((await checkUrl('http://[::1]:8081/', v6)).allowed, false);
      const https = { allow: parseAllowList('127.0.0.1:443'), resolve: publicResolve };
      assert.equal((await checkUrl('https://127.0.0.1/', https)).allowed, true, 'default port counts');
    });
  });

  describe('dns resolver', () => {
    it('resolves localhost through the OS and caches answers for the TTL, not failures', async () => {
      const real = createDnsResolver();
      const addrs = await real('localhost');
      assert.ok(addrs.length > 0);
      for (const a of addrs) assert.equal(classifyAddress(a).category, 'loopback');

      let clock = 0;
      let calls = 0;
      let fail = true;
      const resolver = createDnsResolver({
        ttlMs: 1000,
        now: () => clock,
        lookup: async (h) => {
          calls += 1;
          if (h === 'flaky.test' && fail) throw new Error('SERVFAIL');
          return [`203.0.113.${calls}`];
        },
      });
      assert.deepEqual(await resolver('a.test'), ['203.0.113.1']);
      assert.deepEqual(await resolver('A.TEST.'), ['203.0.113.1']);
      assert.equal(calls, 1);
      clock = 1000;
      assert.deepEqual(await resolver('a.test'), ['203.0.113.2']);
      await assert.rejects(resolver('flaky.test'), /SERVFAIL/);
      fail = false;
      assert.deepEqual(await resolver('flaky.test'), ['203.0.113.4']);
    });

    it('pinnedLookup answers only the checked addresses, per family', async () => {
      const lookup = pinnedLookup(['93.184.216.34', '2606:2800::1']);
      const call = (opts: object) =>
        new Promise<unknown[]>((resolve) => (lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)('rebind.test', opts, (...a) => resolve(a)));
      assert.deepEqual(await call({}), [null, '93.184.216.34', 4]);
      assert.deepEqual(await call({ family: 6 }), [null, '2606:2800::1', 6]);
      assert.deepEqual(await call({ all: true }), [null, [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800::1', family: 6 }]]);
      assert.deepEqual(await call({ family: 'IPv6', all: true }), [null, [{ address: '2606:2800::1', family: 6 }]]);
      const v4only = pinnedLookup(['93.184.216.34']);
      const [e] = await new Promise<unknown[]>((resolve) => (v4only as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)('x', { family: 6 }, (...a) => resolve(a)));
      assert.equal((e as { code?: string }).code, 'ENOTFOUND');
    });
  });
});
