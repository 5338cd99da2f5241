package dev.metahooks.emulator;

import dev.metahooks.server.PemFiles;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A webhook client's TLS from PEM files, read as the hook server reads its own. */
public final class ClientTls {
  private ClientTls() {}

  /** A client context trusting {@code caFile} (the JDK's roots if null), presenting the certificate if given. */
  public static SSLContext context(Path caFile, Path certFile, Path keyFile) throws Exception {
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
