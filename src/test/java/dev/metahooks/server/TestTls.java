package dev.metahooks.server;

import java.nio.file.Path;
import java.util.List;

/**
 * TLS for tests outside this package: a CA with a server and a client certificate issued by openssl ({@link SecurityIT.Certificates}).
 */
public final class TestTls {
  private TestTls() {}

  /** A CA, a server certificate for localhost and a client certificate, as PEM files in {@code dir}. */
  public static List<Path> certificates(Path dir) throws Exception {
    SecurityIT.Certificates certs = new SecurityIT.Certificates(dir);
    return List.of(
        certs.caCert, certs.serverCert, certs.serverKey, certs.clientCert, certs.clientKey);
  }
}
