package dev.metahooks.server.internal;

import dev.metahooks.server.config.ServerConfig;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The port's TLS context, from the PEM files of {@code METAHOOKS_TLS_*}, and its reload when they rotate. A
 * reload is all or nothing: every file is read and checked (the key belongs to the certificate) before any is
 * swapped in, so a rotation caught half-written, or a mismatched pair, leaves the previous pair serving.
 */
public final class TlsFiles {
  private final ServerConfig.Tls tls;
  private final SslContextFactory.Server context = new SslContextFactory.Server();

  public TlsFiles(ServerConfig.Tls tls) {
    this.tls = tls;
    context.setKeyStore(PemKeyStores.keyStore(tls.certFile(), tls.keyFile()));
    context.setKeyStorePassword(new String(PemKeyStores.PASSWORD));
    if (tls.clientCaFile() != null) {
      // The default trust manager also checks that a client certificate may be used for client
      // authentication
      // (extended key usage clientAuth, when the certificate lists usages).
      context.setTrustStore(PemKeyStores.trustStore(tls.clientCaFile()));
      context.setNeedClientAuth(true);
    }
  }

  public SslContextFactory.Server context() {
    return context;
  }

  public List<Path> files() {
    List<Path> files = new ArrayList<>(List.of(tls.certFile(), tls.keyFile()));
    if (tls.clientCaFile() != null) {
      files.add(tls.clientCaFile());
    }
    return files;
  }

  /** Reads every file again and swaps them in together; throws, changing nothing, when one cannot be used. */
  public void reload() {
    KeyStore keys = PemKeyStores.keyStore(tls.certFile(), tls.keyFile());
    KeyStore trust =
        tls.clientCaFile() == null ? null : PemKeyStores.trustStore(tls.clientCaFile());
    try {
      context.reload(
          reloaded -> {
            reloaded.setKeyStore(keys);
            if (trust != null) {
              reloaded.setTrustStore(trust);
            }
          });
    } catch (Exception e) {
      throw new IllegalStateException(
          "the TLS context could not be reloaded: " + e.getMessage(), e);
    }
  }
}
