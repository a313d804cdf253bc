// RFC 3161 trusted time, the pure half: the TimeStampReq a package sends (SHA-256 message imprint
// over the package's manifest, datapackage.json, a random nonce, certReq so the token carries the
// TSA's certificate) and the reading of a TimeStampResp / TimeStampToken (status, TSTInfo: imprint,
// genTime, serial, nonce, policy). A minimal DER reader and writer, enough for these structures and
// strict about lengths, so a hostile or broken response is an error, never a crash or a hang.
// Checking the token's CMS signature against a CA is done with OpenSSL (infra/openssl-timestamp.ts).

export const TIMESTAMP_TOKEN_PATH = 'timestamp.tsr';

/** The `timestamp` field a WACZ's datapackage-digest.json carries (beside the signature): exactly `{ token: <base64> }`. */
export const digestTimestampField = (token: Buffer) => ({ timestamp: { token: token.toString('base64') } });
export const TIMESTAMP_QUERY_TYPE = 'application/timestamp-query';
export const TIMESTAMP_REPLY_TYPE = 'application/timestamp-reply';

const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';

export class TimestampFormatError extends Error {}

interface Der {
  tag: number;
  /** The content bytes. */
  body: Buffer;
  /** Offset just past the element in its container. */
  end: number;
  /** The whole element (header + body). */
  raw: Buffer;
}

function readDer(buf: Buffer, at = 0): Der {
  if (at + 2 > buf.length) throw new TimestampFormatError('truncated DER element');
  const tag = buf[at]!;
  if ((tag & 0x1f) === 0x1f) throw new TimestampFormatError('multi-byte DER tags are not used here');
  let len = buf[at + 1]!;
  let off = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || off + n > buf.length) throw new TimestampFormatError('bad DER length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[off + i]!;
    off += n;
  }
  if (off + len > buf.length) throw new TimestampFormatError('DER element longer than its container');
  return { tag, body: buf.subarray(off, off + len), end: off + len, raw: buf.subarray(at, off + len) };
}

function children(el: Der): Der[] {
  const out: Der[] = [];
  for (let at = 0; at < el.body.length; ) {
    const child = readDer(el.body, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

function expect(el: Der | undefined, tag: number, what: string): Der {
  if (!el || el.tag !== tag) throw new TimestampFormatError(`${what}: expected tag 0x${tag.toString(16)}, found ${el ? `0x${el.tag.toString(16)}` : 'nothing'}`);
  return el;
}

function oidText(body: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of body) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function encodeLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));

function encodeOid(oid: string): Buffer {
  const [a, b, ...rest] = oid.split('.').map(Number);
  const bytes: number[] = [a! * 40 + b!];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A positive INTEGER from unsigned big-endian bytes. */
function encodeUnsigned(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return tlv(0x02, b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

/**
 * A DER TimeStampReq (RFC 3161 §2.4.1): version 1, SHA-256 imprint of `sha256` (32 bytes),
 * the nonce (unsigned, e.g. 8 random bytes), certReq TRUE.
 */
export function timestampRequest(sha256: Buffer, nonce: Buffer): Buffer {
  if (sha256.length !== 32) throw new TimestampFormatError('the message imprint must be a 32-byte SHA-256');
  const imprint = seq(seq(encodeOid(OID_SHA256), Buffer.from([0x05, 0x00])), tlv(0x04, sha256));
  return seq(tlv(0x02, Buffer.from([1])), imprint, encodeUnsigned(nonce), Buffer.from([0x01, 0x01, 0xff]));
}

export interface TstInfo {
  policy: string;
  /** Hex SHA-256 the authority vouches for. */
  imprintSha256: string;
  /** Hex serial number. */
  serial: string;
  /** The authority's time, ISO 8601 UTC. */
  genTime: string;
  /** Hex nonce, null when absent. */
  nonce: string | null;
}

export interface ParsedTimestampResponse {
  /** PKIStatus: 0 granted, 1 grantedWithMods, 2 rejection, 3 waiting, 4 revocationWarning, 5 revocationNotification. */
  status: number;
  statusText: string | null;
  /** The TimeStampToken (DER ContentInfo) when granted. */
  token: Buffer | null;
  tstInfo: TstInfo | null;
}

function hexInteger(body: Buffer): string {
  let b = body;
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return b.toString('hex');
}

function generalizedTime(body: Buffer): string {
  const text = body.toString('latin1');
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(text);
  if (!m) throw new TimestampFormatError(`genTime ${JSON.stringify(text)} is not a UTC GeneralizedTime`);
  const ms = m[7] ? m[7].slice(1, 4).padEnd(3, '0') : '000';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${ms}Z`;
}

/** Reads the TSTInfo out of a TimeStampToken (ContentInfo → SignedData → encapContentInfo). */
export function readTimestampToken(token: Buffer): TstInfo {
  const contentInfo = expect(readDer(token), 0x30, 'ContentInfo');
  const [type, explicit] = children(contentInfo);
  if (oidText(expect(type, 0x06, 'contentType').body) !== OID_SIGNED_DATA) throw new TimestampFormatError('the token is not CMS SignedData');
  const signedData = expect(children(expect(explicit, 0xa0, 'content'))[0], 0x30, 'SignedData');
  const encap = expect(children(signedData)[2], 0x30, 'encapContentInfo');
  const [eType, eContent] = children(encap);
  if (oidText(expect(eType, 0x06, 'eContentType').body) !== OID_TST_INFO) throw new TimestampFormatError('the token does not hold a TSTInfo');
  const octets = expect(children(expect(eContent, 0xa0, 'eContent'))[0], 0x04, 'eContent octets');
  const fields = children(expect(readDer(octets.body), 0x30, 'TSTInfo'));
  const [version, policy, imprint, serial, genTime, ...rest] = fields;
  expect(version, 0x02, 'TSTInfo.version');
  const [alg, hashed] = children(expect(imprint, 0x30, 'messageImprint'));
  const algOid = oidText(expect(children(expect(alg, 0x30, 'hashAlgorithm'))[0], 0x06, 'hashAlgorithm.oid').body);
  if (algOid !== OID_SHA256) throw new TimestampFormatError(`the imprint uses ${algOid}, not SHA-256`);
  const nonce = rest.find((f) => f.tag === 0x02);
  return {
    policy: oidText(expect(policy, 0x06, 'TSTInfo.policy').body),
    imprintSha256: expect(hashed, 0x04, 'hashedMessage').body.toString('hex'),
    serial: hexInteger(expect(serial, 0x02, 'TSTInfo.serialNumber').body),
    genTime: generalizedTime(expect(genTime, 0x18, 'TSTInfo.genTime').body),
    nonce: nonce ? hexInteger(nonce.body) : null,
  };
}

/** Reads a DER TimeStampResp (RFC 3161 §2.4.2); throws TimestampFormatError when it is not one. */
export function readTimestampResponse(der: Buffer): ParsedTimestampResponse {
  const outer = readDer(der);
  if (outer.end !== der.length) throw new TimestampFormatError('trailing bytes after the TimeStampResp');
  const [statusInfo, token] = children(expect(outer, 0x30, 'TimeStampResp'));
  const statusFields = children(expect(statusInfo, 0x30, 'PKIStatusInfo'));
  const status = Number.parseInt(hexInteger(expect(statusFields[0], 0x02, 'PKIStatus').body), 16);
  const freeText = statusFields[1]?.tag === 0x30 ? children(statusFields[1]).map((s) => s.body.toString('utf8')).join('; ') : null;
  if (!token) return { status, statusText: freeText, token: null, tstInfo: null };
  const tokenDer = Buffer.from(token.raw);
  return { status, statusText: freeText, token: tokenDer, tstInfo: readTimestampToken(tokenDer) };
}

/** The token's TSTInfo, whether `der` is a whole TimeStampResp (what `openssl ts -reply` writes) or a bare token. */
export function readTimestampFile(der: Buffer): TstInfo {
  const first = children(expect(readDer(der), 0x30, 'timestamp'))[0];
  if (first?.tag === 0x30) {
    const parsed = readTimestampResponse(der);
    if (!parsed.tstInfo) throw new TimestampFormatError(`the time-stamp response carries no token (status ${parsed.status})`);
    return parsed.tstInfo;
  }
  return readTimestampToken(der);
}
