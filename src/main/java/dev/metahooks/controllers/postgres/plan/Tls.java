package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * TLS with the user's certificate ({@code spec.tls.secretName}): a {@code kubernetes.io/tls} Secret with
 * {@code tls.crt}, {@code tls.key} and {@code ca.crt} (as cert-manager writes it), related through the customize
 * hook. It is mounted at {@value Spilo#TLS_MOUNT} and handed to Spilo ({@code SSL_CERTIFICATE_FILE},
 * {@code SSL_PRIVATE_KEY_FILE}; {@code SSL_TEST_RELOAD} makes Spilo reload PostgreSQL when the files change, so a
 * renewed certificate needs no restart). With {@code restApi}, Patroni's REST API serves the same certificate, the
 * members call each other by DNS name, and the hook's Jobs call it over https, trusting {@code ca.crt}.
 *
 * <p>A Secret that is missing or invalid is reported in the {@code TLSReady} condition and changes nothing: pods
 * that already use the Secret keep it, pods that do not yet are not restarted for it.
 */
public final class Tls {
  public static final String SSL_RESTAPI_CA_FILE = "SSL_RESTAPI_CA_FILE";

  public enum Check {
    NOT_CONFIGURED,
    VALID,
    MISSING,
    INVALID
  }

  /** What the observed TLS Secret is, and the CA it carries when it is valid. */
  public record State(Check check, String message, Optional<String> ca) {}

  private Tls() {}

  public static State check(Optional<TlsSpec> spec, ObservedCluster observed, Instant now) {
    if (spec.isEmpty()) {
      return new State(
          Check.NOT_CONFIGURED,
          "spec.tls is not set: Spilo's self-signed certificate, sslmode=require",
          Optional.empty());
    }
    String name = spec.get().secretName();
    Optional<ObjectNode> secret = observed.relatedSecret(name);
    if (secret.isEmpty()) {
      return new State(
          Check.MISSING,
          "Secret "
              + name
              + " (spec.tls.secretName) does not exist in namespace "
              + observed.namespace()
              + " or is not given to this cluster (label "
              + SecretMarks.label(observed.name())
              + "="
              + SecretMarks.GIVEN
              + "); nothing is restarted for it until it is",
          Optional.empty());
    }
    String type = secret.get().path("type").asText("");
    if (!TlsSpec.SECRET_TYPE.equals(type)) {
      return invalid(
          name,
          "is of type " + (type.isEmpty() ? "(none)" : type) + ", not " + TlsSpec.SECRET_TYPE);
    }
    for (String key : List.of(TlsSpec.CERT, TlsSpec.KEY, TlsSpec.CA)) {
      if (SecretData.value(secret.get(), key).filter(v -> !v.isBlank()).isEmpty()) {
        return invalid(name, "has no " + key);
      }
    }
    if (!SecretData.value(secret.get(), TlsSpec.KEY).orElseThrow().contains("PRIVATE KEY-----")) {
      return invalid(name, "has a " + TlsSpec.KEY + " that is not a PEM private key");
    }
    String ca = SecretData.value(secret.get(), TlsSpec.CA).orElseThrow();
    try {
      List<X509Certificate> chain =
          certificates(SecretData.value(secret.get(), TlsSpec.CERT).orElseThrow(), TlsSpec.CERT);
      certificates(ca, TlsSpec.CA);
      X509Certificate leaf = chain.get(0);
      if (leaf.getNotAfter().toInstant().isBefore(now)) {
        return invalid(
            name, "has a " + TlsSpec.CERT + " that expired at " + leaf.getNotAfter().toInstant());
      }
      return new State(
          Check.VALID,
          "Secret "
              + name
              + ": "
              + leaf.getSubjectX500Principal().getName()
              + ", valid until "
              + leaf.getNotAfter().toInstant(),
          Optional.of(ca));
    } catch (CertificateException e) {
      return invalid(name, "has " + e.getMessage());
    }
  }

  private static State invalid(String name, String why) {
    return new State(
        Check.INVALID,
        "Secret " + name + " " + why + "; nothing is restarted for it until it is fixed",
        Optional.empty());
  }

  private static List<X509Certificate> certificates(String pem, String key)
      throws CertificateException {
    Collection<? extends java.security.cert.Certificate> parsed;
    try {
      parsed =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (CertificateException | RuntimeException e) {
      throw new CertificateException("a " + key + " that is not a PEM certificate");
    }
    if (parsed.isEmpty()) {
      throw new CertificateException("a " + key + " that is not a PEM certificate");
    }
    return parsed.stream().map(X509Certificate.class::cast).toList();
  }

  /**
   * How the pods are rendered: the Secret they mount, whether Patroni trusts its CA when it calls the other
   * members, and whether it serves its REST API over https.
   */
  public record Rendering(String secretName, boolean restApiTrust, boolean restApiServing) {}

  /**
   * The pods' TLS: the spec's Secret when it is valid; while it is missing or invalid, the Secret the observed
   * StatefulSet already mounts, if any (a Secret gone bad is no reason to restart pods that have a working copy).
   * Patroni's REST API turns to https only once every pod trusts the CA: an old leader that does not would find
   * no healthy https candidate and refuse the rollout's switchover, so the first rollout only adds the CA.
   */
  public static Optional<Rendering> rendering(
      Optional<TlsSpec> spec, State state, ObservedCluster observed) {
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> secret =
        state.check() == Check.VALID
            ? Optional.of(spec.get().secretName())
            : mountedSecret(observed);
    boolean restApi = spec.get().restApi();
    return secret.map(
        name ->
            new Rendering(
                name,
                restApi,
                restApi && observed.livePods().stream().allMatch(Tls::trustsRestApiCa)));
  }

  /**
   * How the pooler uses the TLS Secret: it serves the Secret's certificate to clients, and verifies the server's
   * ({@code verify-full} against {@code ca.crt}) once {@code verifyServer}.
   */
  public record PoolerTls(String secretName, boolean verifyServer) {}

  /**
   * The pooler's TLS, with the pods' Secret. It verifies the server only once every database pod serves that
   * Secret's certificate (or when there are no pods yet, which will): during the rollout that turns TLS on, a
   * primary still serving Spilo's self-signed certificate would refuse every pooled connection.
   */
  public static Optional<PoolerTls> pooler(Optional<Rendering> podTls, ObservedCluster observed) {
    return podTls.map(
        rendering ->
            new PoolerTls(
                rendering.secretName(),
                observed.statefulSet().isEmpty()
                    || (!observed.livePods().isEmpty()
                        && observed.livePods().stream()
                            .allMatch(pod -> servesSecret(pod, rendering.secretName())))));
  }

  /** An observed database pod that serves the given Secret's certificate to PostgreSQL clients. */
  private static boolean servesSecret(JsonNode pod, String secretName) {
    return env(pod).contains("SSL_CERTIFICATE_FILE")
        && mountedTlsSecret(pod.at("/spec/volumes")).filter(secretName::equals).isPresent();
  }

  private static Optional<String> mountedTlsSecret(JsonNode volumes) {
    for (JsonNode volume : volumes) {
      if (Spilo.TLS_VOLUME.equals(volume.path("name").asText())
          && volume.at("/secret/secretName").isTextual()) {
        return Optional.of(volume.at("/secret/secretName").asText());
      }
    }
    return Optional.empty();
  }

  /** An observed database pod whose Patroni has the CA to verify https members (it was rendered so). */
  public static boolean trustsRestApiCa(JsonNode pod) {
    return env(pod).contains(SSL_RESTAPI_CA_FILE);
  }

  private static List<String> env(JsonNode pod) {
    List<String> names = new java.util.ArrayList<>();
    for (JsonNode container : pod.at("/spec/containers")) {
      container.path("env").forEach(variable -> names.add(variable.path("name").asText()));
    }
    return names;
  }

  /** The Secret the observed StatefulSet mounts as its TLS volume. */
  public static Optional<String> mountedSecret(ObservedCluster observed) {
    return observed
        .statefulSet()
        .flatMap(sts -> mountedTlsSecret(sts.at("/spec/template/spec/volumes")));
  }

  /** The TLS Secret of an observed database pod that serves Patroni's REST API over https. */
  public static Optional<String> httpsSecret(JsonNode pod) {
    return env(pod).contains("SSL_RESTAPI_CERTIFICATE_FILE")
        ? mountedTlsSecret(pod.at("/spec/volumes"))
        : Optional.empty();
  }
}
