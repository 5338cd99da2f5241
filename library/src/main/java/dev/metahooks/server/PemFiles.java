package dev.metahooks.server;

import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.internal.PemKeyStores;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Key stores from PEM files, the format of Kubernetes TLS Secrets ({@code tls.crt}, {@code tls.key},
 * {@code ca.crt}). Private keys in PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519) and PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}, cert-manager's default) are read; other forms are refused with a message
 * that says how to convert them.
 *
 * <p>Public API ({@link #clientContext}, {@link #trustStore}): a client of a hook server with TLS (a test of one's
 * own, a probe) reads the Secret's files as the server reads them, e.g. {@code PemFiles.clientContext(caFile, null,
 * null)} to trust the server's CA.
 */
public final class PemFiles {
  private PemFiles() {}

  /**
   * A TLS client context trusting {@code caFile} (the JDK's roots if null) and presenting the certificate
   * {@code certFile} with its key {@code keyFile} if they are given (mutual TLS).
   *
   * @throws ConfigurationException when a file cannot be read or the key does not belong to the certificate
   */
  public static SSLContext clientContext(Path caFile, Path certFile, Path keyFile) {
    try {
      TrustManagerFactory trust = null;
      if (caFile != null) {
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trustStore(caFile));
      }
      KeyManagerFactory keys = null;
      if (certFile != null) {
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(PemKeyStores.keyStore(certFile, keyFile), PemKeyStores.PASSWORD);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          keys == null ? null : keys.getKeyManagers(),
          trust == null ? null : trust.getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new ConfigurationException("cannot make a TLS client context: " + e.getMessage(), e);
    }
  }

  /** A key store trusting every certificate of {@code caFile}. */
  public static KeyStore trustStore(Path caFile) {
    return PemKeyStores.trustStore(caFile);
  }
}
