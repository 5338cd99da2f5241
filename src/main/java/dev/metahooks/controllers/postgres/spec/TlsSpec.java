package dev.metahooks.controllers.postgres.spec;

/**
 * {@code spec.tls}: the user's certificate, a {@code kubernetes.io/tls} Secret with {@value #CERT}, {@value #KEY}
 * and {@value #CA} (as cert-manager writes it); with {@code restApi}, Patroni's REST API serves it too.
 */
public record TlsSpec(String secretName, boolean restApi) {
  public static final String CERT = "tls.crt";
  public static final String KEY = "tls.key";
  public static final String CA = "ca.crt";
  public static final String SECRET_TYPE = "kubernetes.io/tls";
}
