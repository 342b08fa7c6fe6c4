#!/usr/bin/env python3
"""StoreLedger's test certificate authority: signs App Store-shaped JWS the way Apple does.

Apple signs App Store data with ES256 and an x5c chain leaf -> intermediate -> root; the leaf
carries the extension 1.2.840.113635.100.6.11.1 and the intermediate 1.2.840.113635.100.6.2.1.
This script makes a chain of the same shape that is NOT Apple's, so that the samples and the
tests can be signed without Apple's keys (see Docs/verification.md).

  python3 Tests/TestCA/testca.py ca     # once: keys and certificates into Tests/TestCA/
  python3 Tests/TestCA/testca.py sign   # re-sign Events/appstore/notifications.jsonl and
                                        # Tests/TestCA/cases.json with the committed keys

Needs the Python package `cryptography`. The keys are test keys, committed on purpose: never
trust this root for real data.
"""
import base64
import datetime
import json
import sys
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID, ObjectIdentifier

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LEAF_MARKER = ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_MARKER = ObjectIdentifier("1.2.840.113635.100.6.2.1")
UNKNOWN_CRITICAL = ObjectIdentifier("1.3.6.1.4.1.99999.1")
NULL = b"\x05\x00"  # Apple's marker extensions hold an ASN.1 NULL


def utc(year, month=1, day=1):
    return datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc)


def name(common):
    return x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "StoreLedger Test CA (not Apple)"),
    ])


def certificate(subject, key, issuer, issuer_key, ca, markers=(), start=utc(2020), end=utc(2045),
                path_length=None, critical_unknown=False):
    builder = (x509.CertificateBuilder()
               .subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length), critical=True)
               .add_extension(x509.KeyUsage(
                   digital_signature=not ca, content_commitment=False, key_encipherment=False,
                   data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                   encipher_only=False, decipher_only=False), critical=True))
    for marker in markers:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, NULL), critical=False)
    if critical_unknown:
        builder = builder.add_extension(x509.UnrecognizedExtension(UNKNOWN_CRITICAL, NULL), critical=True)
    return builder.sign(issuer_key, hashes.SHA384())


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def key_pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def make_ca():
    if (HERE / "root.pem").exists() and "--force" not in sys.argv:
        sys.exit("Tests/TestCA/root.pem exists; pass --force to replace the test CA (and re-sign)")
    root_key = ec.generate_private_key(ec.SECP384R1())
    intermediate_key = ec.generate_private_key(ec.SECP384R1())
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    root = certificate("StoreLedger Test Root CA", root_key, "StoreLedger Test Root CA", root_key, True)
    intermediate = certificate("StoreLedger Test Intermediate", intermediate_key, "StoreLedger Test Root CA",
                               root_key, True, [INTERMEDIATE_MARKER], path_length=0)
    leaf = certificate("StoreLedger Test Signing Leaf", leaf_key, "StoreLedger Test Intermediate",
                       intermediate_key, False, [LEAF_MARKER], end=utc(2040))
    for file, cert in [("root.pem", root), ("intermediate.pem", intermediate), ("leaf.pem", leaf)]:
        (HERE / file).write_bytes(pem(cert))
    for file, key in [("root.key.pem", root_key), ("intermediate.key.pem", intermediate_key),
                      ("leaf.key.pem", leaf_key)]:
        (HERE / "keys" / file).write_bytes(key_pem(key))


def load():
    read_cert = lambda f: x509.load_pem_x509_certificate((HERE / f).read_bytes())
    read_key = lambda f: serialization.load_pem_private_key((HERE / "keys" / f).read_bytes(), None)
    return {
        "root": read_cert("root.pem"), "intermediate": read_cert("intermediate.pem"),
        "leaf": read_cert("leaf.pem"), "root_key": read_key("root.key.pem"),
        "intermediate_key": read_key("intermediate.key.pem"), "leaf_key": read_key("leaf.key.pem"),
    }


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jws(payload, signing_key, chain, alg="ES256"):
    """A compact JWS like Apple's: header {alg, x5c}, ES256 raw r||s signature."""
    header = {"alg": alg, "x5c": [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode()
                                  for c in chain]}
    signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64url(json.dumps(payload, separators=(",", ":")).encode())
    r, s = decode_dss_signature(signing_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def decoded_jws_payload(text):
    part = text.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def sign_notification(notification, key, chain):
    """The notification with its nested JWS re-signed, itself signed, as Apple POSTs it."""
    notification = json.loads(json.dumps(notification))
    data = notification.get("data", {})
    for field in ("signedTransactionInfo", "signedRenewalInfo"):
        if field in data:
            data[field] = jws(decoded_jws_payload(data[field]), key, chain)
    return {"signedPayload": jws(notification, key, chain)}


def sign():
    ca = load()
    chain = [ca["leaf"], ca["intermediate"], ca["root"]]
    source = HERE / "samples" / "appstore-notifications.decoded.jsonl"
    notifications = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    lines = [json.dumps(sign_notification(n, ca["leaf_key"], chain), separators=(",", ":"))
             for n in notifications]
    (REPO / "Events" / "appstore" / "notifications.jsonl").write_text("\n".join(lines) + "\n")

    # Adversarial cases: each is the first sample notification signed by a chain that breaks
    # one rule (certificates made here, their keys thrown away).
    sample = notifications[0]
    p256 = lambda: ec.generate_private_key(ec.SECP256R1())
    p384 = lambda: ec.generate_private_key(ec.SECP384R1())
    root, root_key = ca["root"], ca["root_key"]
    intermediate, intermediate_key = ca["intermediate"], ca["intermediate_key"]

    def leaf_under(issuer_key, issuer_name="StoreLedger Test Intermediate", **options):
        key = p256()
        cert = certificate("StoreLedger Test Signing Leaf", key, issuer_name, issuer_key, False,
                           options.pop("markers", [LEAF_MARKER]), end=options.pop("end", utc(2040)), **options)
        return key, cert

    cases = {"valid": sign_notification(sample, ca["leaf_key"], chain)["signedPayload"]}
    key, expired = leaf_under(intermediate_key, start=utc(2020), end=utc(2021))
    cases["expiredLeaf"] = jws(sample, key, [expired, intermediate, root])
    key, unmarked = leaf_under(intermediate_key, markers=[])
    cases["leafWithoutMarker"] = jws(sample, key, [unmarked, intermediate, root])
    key, critical = leaf_under(intermediate_key, critical_unknown=True)
    cases["unknownCriticalExtension"] = jws(sample, key, [critical, intermediate, root])
    bare_key = p384()
    bare_intermediate = certificate("StoreLedger Test Intermediate", bare_key, "StoreLedger Test Root CA",
                                    root_key, True, [], path_length=0)
    key, leaf = leaf_under(bare_key)
    cases["intermediateWithoutMarker"] = jws(sample, key, [leaf, bare_intermediate, root])
    cases["otherKey"] = jws(sample, p256(), chain)
    key, ca_leaf = leaf_under(intermediate_key)
    ca_leaf = certificate("StoreLedger Test Signing Leaf", key, "StoreLedger Test Intermediate", intermediate_key,
                          True, [LEAF_MARKER], end=utc(2040))
    cases["leafIsCA"] = jws(sample, key, [ca_leaf, intermediate, root])
    end_entity_key = p384()
    end_entity = certificate("StoreLedger Test Intermediate", end_entity_key, "StoreLedger Test Root CA", root_key,
                             False, [INTERMEDIATE_MARKER])
    key, leaf = leaf_under(end_entity_key)
    cases["intermediateNotCA"] = jws(sample, key, [leaf, end_entity, root])
    foreign_root_key = p384()
    foreign_root = certificate("StoreLedger Test Root CA", foreign_root_key, "StoreLedger Test Root CA",
                               foreign_root_key, True)
    foreign_key = p384()
    foreign_intermediate = certificate("StoreLedger Test Intermediate", foreign_key, "StoreLedger Test Root CA",
                                       foreign_root_key, True, [INTERMEDIATE_MARKER], path_length=0)
    key, leaf = leaf_under(foreign_key)
    # x5c[2] is the foreign root: a verifier that trusted x5c[2] would accept this.
    cases["foreignIntermediate"] = jws(sample, key, [leaf, foreign_intermediate, foreign_root])
    cases["foreignIntermediateWithOurRoot"] = jws(sample, key, [leaf, foreign_intermediate, root])
    (HERE / "cases.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    {"ca": make_ca, "sign": sign}.get(sys.argv[1] if len(sys.argv) > 1 else "", lambda: sys.exit(__doc__))()
