package dev.metahooks.server;

import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for tests outside this package: client contexts from PEM files (read as the server reads its own), and
 * a CA with a server and a client certificate issued by openssl ({@link SecurityTest.Certificates}).
 */
public final class TestTls {
  private TestTls() {}

  /** A CA, a server certificate for localhost and a client certificate, as PEM files in {@code dir}. */
  public static List<Path> certificates(Path dir) throws Exception {
    SecurityTest.Certificates certs = new SecurityTest.Certificates(dir);
    return List.of(certs.caCert, certs.serverCert, certs.serverKey, certs.clientCert, certs.clientKey);
  }

  /** A client context trusting {@code caFile} (the JDK's roots if null), presenting the certificate if given. */
  public static SSLContext clientContext(Path caFile, Path certFile, Path keyFile) throws Exception {
    TrustManagerFactory trust = null;
    if (caFile != null) {
      trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(PemFiles.trustStore(caFile));
    }
    KeyManagerFactory keys = null;
    if (certFile != null) {
      KeyStore store = PemFiles.keyStore(certFile, keyFile);
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, PemFiles.PASSWORD);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
    return context;
  }
}
