package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.KubeletText;
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
 * hook. It is mounted at {@value #MOUNT} and handed to Spilo ({@code SSL_CERTIFICATE_FILE},
 * {@code SSL_PRIVATE_KEY_FILE}; {@code SSL_TEST_RELOAD} makes Spilo reload PostgreSQL when the files change, so a
 * renewed certificate needs no restart). With {@code restApi}, Patroni's REST API serves the same certificate, the
 * members call each other by DNS name, and the hook's Jobs call it over https, trusting {@code ca.crt}.
 *
 * <p>A Secret that is missing or invalid is reported in the {@code TLSReady} condition and changes nothing: pods
 * that already use the Secret keep it, pods that do not yet are not restarted for it.
 */
final class Tls {
  static final String VOLUME = "tls";
  static final String MOUNT = "/tls";
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";
  static final String CA = "ca.crt";
  static final String SECRET_TYPE = "kubernetes.io/tls";
  static final String CONDITION = "TLSReady";
  static final String SSL_RESTAPI_CA_FILE = "SSL_RESTAPI_CA_FILE";
  /** Where clients find the CA: the user Secret's {@code ca.crt}, mounted at this path (docs/postgrescluster.md). */
  static final String CLIENT_CA_PATH = "/etc/postgresql-tls/ca.crt";
  /** Owner read-write, group read: PostgreSQL accepts a key owned by root with group access (fsGroup 103). */
  static final int KEY_MODE = 0640;

  /** {@code spec.tls}. */
  record Spec(String secretName, boolean restApi) {}

  enum Check { NOT_CONFIGURED, VALID, MISSING, INVALID }

  /** What the observed TLS Secret is, and the CA it carries when it is valid. */
  record State(Check check, String message, Optional<String> ca) {}

  private Tls() {}

  static State check(Optional<Spec> spec, ObservedCluster observed, Instant now) {
    if (spec.isEmpty()) {
      return new State(Check.NOT_CONFIGURED, "spec.tls is not set: Spilo's self-signed certificate, sslmode=require",
          Optional.empty());
    }
    String name = spec.get().secretName();
    Optional<ObjectNode> secret = observed.relatedSecret(name);
    if (secret.isEmpty()) {
      return new State(Check.MISSING, "Secret " + name + " (spec.tls.secretName) does not exist in namespace "
          + observed.namespace() + "; nothing is restarted for it until it does", Optional.empty());
    }
    String type = secret.get().path("type").asText("");
    if (!SECRET_TYPE.equals(type)) {
      return invalid(name, "is of type " + (type.isEmpty() ? "(none)" : type) + ", not " + SECRET_TYPE);
    }
    for (String key : List.of(CERT, KEY, CA)) {
      if (Secrets.value(secret.get(), key).filter(v -> !v.isBlank()).isEmpty()) {
        return invalid(name, "has no " + key);
      }
    }
    if (!Secrets.value(secret.get(), KEY).orElseThrow().contains("PRIVATE KEY-----")) {
      return invalid(name, "has a " + KEY + " that is not a PEM private key");
    }
    String ca = Secrets.value(secret.get(), CA).orElseThrow();
    try {
      List<X509Certificate> chain = certificates(Secrets.value(secret.get(), CERT).orElseThrow(), CERT);
      certificates(ca, CA);
      X509Certificate leaf = chain.get(0);
      if (leaf.getNotAfter().toInstant().isBefore(now)) {
        return invalid(name, "has a " + CERT + " that expired at " + leaf.getNotAfter().toInstant());
      }
      return new State(Check.VALID, "Secret " + name + ": " + leaf.getSubjectX500Principal().getName()
          + ", valid until " + leaf.getNotAfter().toInstant(), Optional.of(ca));
    } catch (CertificateException e) {
      return invalid(name, "has " + e.getMessage());
    }
  }

  private static State invalid(String name, String why) {
    return new State(Check.INVALID, "Secret " + name + " " + why + "; nothing is restarted for it until it is fixed",
        Optional.empty());
  }

  private static List<X509Certificate> certificates(String pem, String key) throws CertificateException {
    Collection<? extends java.security.cert.Certificate> parsed;
    try {
      parsed = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (CertificateException | RuntimeException e) {
      throw new CertificateException("a " + key + " that is not a PEM certificate");
    }
    if (parsed.isEmpty()) {
      throw new CertificateException("a " + key + " that is not a PEM certificate");
    }
    return parsed.stream().map(X509Certificate.class::cast).toList();
  }

  static Conditions.Condition condition(State state) {
    return switch (state.check()) {
      case NOT_CONFIGURED -> new Conditions.Condition(CONDITION, true, "NotConfigured", state.message());
      case VALID -> new Conditions.Condition(CONDITION, true, "SecretValid", state.message());
      case MISSING -> new Conditions.Condition(CONDITION, false, "SecretMissing", state.message());
      case INVALID -> new Conditions.Condition(CONDITION, false, "SecretInvalid", state.message());
    };
  }

  /**
   * How the pods are rendered: the Secret they mount, whether Patroni trusts its CA when it calls the other
   * members, and whether it serves its REST API over https.
   */
  record Rendering(String secretName, boolean restApiTrust, boolean restApiServing) {}

  /**
   * The pods' TLS: the spec's Secret when it is valid; while it is missing or invalid, the Secret the observed
   * StatefulSet already mounts, if any (a Secret gone bad is no reason to restart pods that have a working copy).
   * Patroni's REST API turns to https only once every pod trusts the CA: an old leader that does not would find
   * no healthy https candidate and refuse the rollout's switchover, so the first rollout only adds the CA.
   */
  static Optional<Rendering> rendering(Optional<Spec> spec, State state, ObservedCluster observed) {
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> secret = state.check() == Check.VALID ? Optional.of(spec.get().secretName()) : mountedSecret(observed);
    boolean restApi = spec.get().restApi();
    return secret.map(name -> new Rendering(name, restApi,
        restApi && observed.livePods().stream().allMatch(Tls::trustsRestApiCa)));
  }

  /** An observed database pod whose Patroni has the CA to verify https members (it was rendered so). */
  static boolean trustsRestApiCa(JsonNode pod) {
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
  static Optional<String> mountedSecret(ObservedCluster observed) {
    return observed.statefulSet().flatMap(sts -> {
      for (JsonNode volume : sts.at("/spec/template/spec/volumes")) {
        if (VOLUME.equals(volume.path("name").asText()) && volume.at("/secret/secretName").isTextual()) {
          return Optional.of(volume.at("/secret/secretName").asText());
        }
      }
      return Optional.empty();
    });
  }

  /** The pods' volume of the Secret. */
  static ObjectNode volume(Rendering rendering) {
    ObjectNode volume = Json.object().put("name", VOLUME);
    volume.putObject("secret").put("secretName", rendering.secretName()).put("defaultMode", KEY_MODE);
    return volume;
  }

  /** Where Spilo's container mounts it. */
  static ObjectNode volumeMount() {
    return Json.object().put("name", VOLUME).put("mountPath", MOUNT).put("readOnly", true);
  }

  /** Spilo's variables that point it at the Secret's files, after its own. */
  static ArrayNode env(Rendering rendering, String cluster, String namespace) {
    ArrayNode env = Json.MAPPER.createArrayNode();
    value(env, "SSL_CERTIFICATE_FILE", MOUNT + "/" + CERT);
    value(env, "SSL_PRIVATE_KEY_FILE", MOUNT + "/" + KEY);
    // Spilo's cron job compares the files' hashes every five minutes and reloads PostgreSQL when they change.
    value(env, "SSL_TEST_RELOAD", "true");
    if (rendering.restApiTrust()) {
      // Patroni verifies the other members' REST API with restapi.cafile (also while it serves http itself).
      value(env, SSL_RESTAPI_CA_FILE, MOUNT + "/" + CA);
    }
    if (rendering.restApiServing()) {
      value(env, "SSL_RESTAPI_CERTIFICATE_FILE", MOUNT + "/" + CERT);
      value(env, "SSL_RESTAPI_PRIVATE_KEY_FILE", MOUNT + "/" + KEY);
      // ... and their names: so each member's connect address is its DNS name, which the certificate covers.
      env.addObject().put("name", "POD_NAME").putObject("valueFrom").putObject("fieldRef")
          .put("apiVersion", "v1").put("fieldPath", "metadata.name");
      value(env, "RESTAPI_CONNECT_ADDRESS", KubeletText.reference("POD_NAME") + "."
          + Names.serviceHost(Names.headlessService(cluster), namespace) + ":" + StatefulSets.PATRONI_PORT);
    }
    return env;
  }

  /**
   * Finishes a Job that calls Patroni's REST API for https (its builder calls this on the Job it is building): its
   * {@code PATRONI_URL} switched to https and curl trusting the Secret's {@code ca.crt} ({@code CURL_CA_BUNDLE}),
   * mounted alone; the script stays as it is.
   */
  static ObjectNode httpsJob(ObjectNode job, String secretName) {
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    ObjectNode secret = pod.withArray("volumes").addObject().put("name", VOLUME).putObject("secret")
        .put("secretName", secretName);
    secret.putArray("items").addObject().put("key", CA).put("path", CA);
    ObjectNode container = (ObjectNode) pod.path("containers").get(0);
    container.withArray("volumeMounts").addObject().put("name", VOLUME).put("mountPath", MOUNT).put("readOnly", true);
    for (JsonNode env : container.path("env")) {
      if ("PATRONI_URL".equals(env.path("name").asText())) {
        ((ObjectNode) env).put("value", env.path("value").asText().replaceFirst("^http://", "https://"));
      }
    }
    value(container.withArray("env"), "CURL_CA_BUNDLE", MOUNT + "/" + CA);
    return job;
  }

  /** The TLS Secret of an observed database pod that serves Patroni's REST API over https. */
  static Optional<String> httpsSecret(JsonNode pod) {
    if (env(pod).contains("SSL_RESTAPI_CERTIFICATE_FILE")) {
      for (JsonNode volume : pod.at("/spec/volumes")) {
        if (VOLUME.equals(volume.path("name").asText()) && volume.at("/secret/secretName").isTextual()) {
          return Optional.of(volume.at("/secret/secretName").asText());
        }
      }
    }
    return Optional.empty();
  }

  private static void value(ArrayNode env, String name, String value) {
    env.addObject().put("name", name).put("value", value);
  }
}
