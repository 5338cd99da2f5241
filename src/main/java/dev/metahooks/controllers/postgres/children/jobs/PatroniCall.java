package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import java.util.Optional;

/**
 * How a Job calls Patroni's REST API, decided in one place: the member's address, and http, or https when the pods
 * serve the REST API so, with curl trusting the TLS Secret's {@code ca.crt} ({@code CURL_CA_BUNDLE}), mounted alone.
 * The Jobs' scripts read {@code PATRONI_URL} and the login, and stay the same either way.
 */
record PatroniCall(String host, Optional<String> caSecret) {
  static final String URL_VARIABLE = "PATRONI_URL";
  static final String CA_VARIABLE = "CURL_CA_BUNDLE";

  /** Any member, through the headless Service's name, over https when the rendered pods serve it so. */
  static PatroniCall anyMember(String cluster, String namespace, Optional<Tls.Rendering> podTls) {
    return new PatroniCall(
        Names.serviceHost(Names.headlessService(cluster), namespace),
        podTls.filter(Tls.Rendering::restApiServing).map(Tls.Rendering::secretName));
  }

  /** One member by its pod's name, over https when that pod serves it so (the CA of {@code httpsSecret}). */
  static PatroniCall member(
      String pod, String cluster, String namespace, Optional<String> httpsSecret) {
    return new PatroniCall(
        pod + "." + Names.serviceHost(Names.headlessService(cluster), namespace), httpsSecret);
  }

  String url() {
    return (caSecret.isPresent() ? "https://" : "http://") + host + ":" + Spilo.PATRONI_PORT;
  }

  /** {@code PATRONI_URL}, added to the container's environment. */
  void addUrl(ArrayNode env) {
    env.addObject().put("name", URL_VARIABLE).put("value", url());
  }

  /** The REST API's user and its password from the {@code <n>-restapi} Secret, as the scripts' curl sends them. */
  void addLogin(ArrayNode env, String cluster) {
    env.addObject().put("name", "PATRONI_USERNAME").put("value", Spilo.RESTAPI_USER);
    env.addObject()
        .put("name", "PATRONI_PASSWORD")
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", Names.restApiSecret(cluster))
        .put("key", "password");
  }

  /** With https, the CA: the pod's volume of the Secret's {@code ca.crt} alone, its mount, and curl pointed at it. */
  void addTrust(ObjectNode pod, ObjectNode container) {
    caSecret.ifPresent(
        secretName -> {
          ObjectNode secret =
              pod.withArray("volumes")
                  .addObject()
                  .put("name", Spilo.TLS_VOLUME)
                  .putObject("secret")
                  .put("secretName", secretName);
          secret.putArray("items").addObject().put("key", TlsSpec.CA).put("path", TlsSpec.CA);
          container
              .withArray("volumeMounts")
              .addObject()
              .put("name", Spilo.TLS_VOLUME)
              .put("mountPath", Spilo.TLS_MOUNT)
              .put("readOnly", true);
          container
              .withArray("env")
              .addObject()
              .put("name", CA_VARIABLE)
              .put("value", Spilo.TLS_MOUNT + "/" + TlsSpec.CA);
        });
  }
}
