package dev.metahooks.controllers.postgres;

/**
 * {@code spec.tls}: the user's certificate, a {@code kubernetes.io/tls} Secret with {@value #CERT}, {@value #KEY}
 * and {@value #CA} (as cert-manager writes it); with {@code restApi}, Patroni's REST API serves it too.
 */
record TlsSpec(String secretName, boolean restApi) {
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";
  static final String CA = "ca.crt";
  static final String SECRET_TYPE = "kubernetes.io/tls";
}
