"""Checks a WACZ's anonymous wacz-auth 0.1.0 signature the way the spec's "Anonymous Signature
Validation" describes it, with pyca/cryptography (independent of the platform's Node code):
every resource against datapackage.json, datapackage.json against datapackage-digest.json's hash,
then signedData.signature (ECDSA P-384, SHA-256, raw r|s) over signedData.hash with
signedData.publicKey (SPKI DER). Prints {"verified": true, "fingerprint": <sha256 of the SPKI DER>}
and exits 0, or prints what failed and exits 1.

py-wacz's own `wacz validate --verify-auth` (authsign) checks only the domain-certificate variant.

usage: python wacz-anonymous-verify.py <file.wacz>
"""
import base64
import hashlib
import json
import sys
import zipfile

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def fail(message):
    print(json.dumps({"verified": False, "error": message}))
    sys.exit(1)


def main(path):
    with zipfile.ZipFile(path) as z:
        manifest_bytes = z.read("datapackage.json")
        manifest = json.loads(manifest_bytes)
        digest = json.loads(z.read("datapackage-digest.json"))
        for res in manifest["resources"]:
            data = z.read(res["path"])
            if "sha256:" + hashlib.sha256(data).hexdigest() != res["hash"] or len(data) != res["bytes"]:
                fail("resource changed: " + res["path"])
    manifest_hash = "sha256:" + hashlib.sha256(manifest_bytes).hexdigest()
    signed = digest["signedData"]
    if digest["hash"] != manifest_hash or signed["hash"] != manifest_hash:
        fail("datapackage.json does not match the signed hash")
    if signed.get("version") != "0.1.0":
        fail("signedData.version is not 0.1.0")
    if signed["created"] != manifest["created"]:
        fail("signedData.created differs from datapackage.json created")
    der = base64.b64decode(signed["publicKey"])
    key = serialization.load_der_public_key(der)
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp384r1":
        fail("publicKey is not an ECDSA P-384 key")
    raw = base64.b64decode(signed["signature"])
    if len(raw) != 96:
        fail("signature is not a raw P-384 r|s (96 bytes)")
    sig = encode_dss_signature(int.from_bytes(raw[:48], "big"), int.from_bytes(raw[48:], "big"))
    try:
        key.verify(sig, signed["hash"].encode("utf-8"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        fail("the signature does not verify with publicKey")
    print(json.dumps({"verified": True, "fingerprint": hashlib.sha256(der).hexdigest()}))


if __name__ == "__main__":
    main(sys.argv[1])
