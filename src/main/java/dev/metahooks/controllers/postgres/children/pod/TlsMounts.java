package dev.metahooks.controllers.postgres.children.pod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.kube.KubeletText;

/**
 * The user's certificate in what the builders render ({@link Tls} decides whether and how): the pods' volume and
 * Spilo's variables. The Jobs that call Patroni's REST API over https mount its CA themselves
 * ({@code jobs.PatroniCall}).
 */
public final class TlsMounts {
  /** Where clients find the CA: the user Secret's {@code ca.crt}, mounted at this path (docs/postgrescluster/security.md, TLS). */
  public static final String CLIENT_CA_PATH = "/etc/postgresql-tls/ca.crt";

  /** Owner read-write, group read: PostgreSQL accepts a key owned by root with group access (fsGroup 103). */
  public static final int KEY_MODE = 0640;

  private TlsMounts() {}

  /** The pods' volume of the Secret. */
  public static ObjectNode volume(Tls.Rendering rendering) {
    ObjectNode volume = Json.object().put("name", Spilo.TLS_VOLUME);
    volume
        .putObject("secret")
        .put("secretName", rendering.secretName())
        .put("defaultMode", KEY_MODE);
    return volume;
  }

  /** Where Spilo's container mounts it. */
  public static ObjectNode volumeMount() {
    return Json.object()
        .put("name", Spilo.TLS_VOLUME)
        .put("mountPath", Spilo.TLS_MOUNT)
        .put("readOnly", true);
  }

  /** Spilo's variables that point it at the Secret's files, after its own. */
  public static ArrayNode env(Tls.Rendering rendering, String cluster, String namespace) {
    ArrayNode env = Json.array();
    value(env, "SSL_CERTIFICATE_FILE", Spilo.TLS_MOUNT + "/" + TlsSpec.CERT);
    value(env, "SSL_PRIVATE_KEY_FILE", Spilo.TLS_MOUNT + "/" + TlsSpec.KEY);
    // Spilo's cron job compares the files' hashes every five minutes and reloads PostgreSQL when
    // they change.
    value(env, "SSL_TEST_RELOAD", "true");
    if (rendering.restApiTrust()) {
      // Patroni verifies the other members' REST API with restapi.cafile (also while it serves http
      // itself).
      value(env, Tls.SSL_RESTAPI_CA_FILE, Spilo.TLS_MOUNT + "/" + TlsSpec.CA);
    }
    if (rendering.restApiServing()) {
      value(env, "SSL_RESTAPI_CERTIFICATE_FILE", Spilo.TLS_MOUNT + "/" + TlsSpec.CERT);
      value(env, "SSL_RESTAPI_PRIVATE_KEY_FILE", Spilo.TLS_MOUNT + "/" + TlsSpec.KEY);
      // ... and their names: so each member's connect address is its DNS name, which the
      // certificate covers.
      env.addObject()
          .put("name", "POD_NAME")
          .putObject("valueFrom")
          .putObject("fieldRef")
          .put("apiVersion", "v1")
          .put("fieldPath", "metadata.name");
      value(
          env,
          "RESTAPI_CONNECT_ADDRESS",
          KubeletText.reference("POD_NAME")
              + "."
              + Names.serviceHost(Names.headlessService(cluster), namespace)
              + ":"
              + Spilo.PATRONI_PORT);
    }
    return env;
  }

  private static void value(ArrayNode env, String name, String value) {
    env.addObject().put("name", name).put("value", value);
  }
}
