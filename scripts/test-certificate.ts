// A throw-away self-signed certificate for localhost and 127.0.0.1, for the tests, journeys and
// benchmarks that run the server over HTTPS (TLS_CERT_FILE, TLS_KEY_FILE). Made by the openssl
// command, which Debian ships (.ci/run installs it where it is missing): Node can make keys but not
// certificates.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The certificate itself (PEM): the one authority a client needs to trust. */
  cert: Buffer;
}

export function makeTestCertificate(dir: string): TestCertificate {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  try {
    // prettier-ignore
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(
      `openssl could not make a test certificate (apt-get install openssl): ${(err as Error).message}`,
      { cause: err },
    );
  }
  return { certFile, keyFile, cert: fs.readFileSync(certFile) };
}
