// Generates the committed TEST-ONLY TLS fixture: a self-signed X.509 v3 certificate for
// CN=localhost (SAN DNS:localhost, IP:127.0.0.1, IP:::1) and its RSA 2048 private key, both PEM.
// The key is public (it is in the repository): never use it for anything real.
//
// Usage: npx tsx scripts/generate-tls-fixture.ts [certPath keyPath]
// Without arguments it writes fixtures/tls/cert.pem and fixtures/tls/key.pem (relative to the
// repository root); given paths are taken relative to the working directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';

const { pki, md, random, util } = forge;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_CERT = resolve(REPO_ROOT, 'fixtures/tls/cert.pem');
const DEFAULT_KEY = resolve(REPO_ROOT, 'fixtures/tls/key.pem');

// Long validity so the fixture never expires while tests run.
const NOT_BEFORE = new Date('2025-01-01T00:00:00Z');
const NOT_AFTER = new Date('2125-01-01T00:00:00Z');

export interface TlsFixture {
  readonly certPem: string;
  readonly keyPem: string;
}

/** Builds a fresh self-signed localhost certificate and its key (PKCS#8 PEM). */
export function generateTlsFixture(): TlsFixture {
  const keys = pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = pki.createCertificate();
  cert.publicKey = keys.publicKey;

  // Positive 128-bit serial (first byte's high bit cleared so DER keeps it positive).
  const serial = util.bytesToHex(random.getBytesSync(16));
  cert.serialNumber = (parseInt(serial.slice(0, 2), 16) & 0x7f).toString(16).padStart(2, '0') + serial.slice(2);

  cert.validity.notBefore = NOT_BEFORE;
  cert.validity.notAfter = NOT_AFTER;

  const name = [{ name: 'commonName', value: 'localhost' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' }, // dNSName
        { type: 7, ip: '127.0.0.1' }, // iPAddress
        { type: 7, ip: '::1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, md.sha256.create()); // sha256WithRSAEncryption; version is v3

  const keyPem = pki.privateKeyInfoToPem(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(keys.privateKey)));
  return { certPem: pki.certificateToPem(cert), keyPem };
}

function writePem(path: string, pem: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pem, { mode });
}

function main(argv: readonly string[]): void {
  if (argv.length !== 0 && argv.length !== 2) {
    process.stderr.write('usage: npx tsx scripts/generate-tls-fixture.ts [certPath keyPath]\n');
    process.exit(2);
  }
  const [certArg, keyArg] = argv;
  const certPath = certArg !== undefined && keyArg !== undefined ? resolve(certArg) : DEFAULT_CERT;
  const keyPath = certArg !== undefined && keyArg !== undefined ? resolve(keyArg) : DEFAULT_KEY;
  const { certPem, keyPem } = generateTlsFixture();
  writePem(certPath, certPem, 0o644);
  writePem(keyPath, keyPem, 0o600);
  process.stdout.write(`wrote ${certPath}\nwrote ${keyPath}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
