package dev.metahooks.controllers.postgres.children.pooler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.TlsWorlds;
import dev.metahooks.testsupport.TestCertificates;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pooler's TLS with a certificate made by openssl. */
class PoolersIT {
  /**
   * TLS turned on for a running cluster with a pooler: PgBouncer serves the Secret's certificate at once and the
   * pooler URIs verify it, but PgBouncer verifies the server only once every database pod serves that certificate
   * (before, a primary still on Spilo's own would refuse every pooled connection).
   */
  @Test
  void withTlsThePoolerServesTheSecretAndVerifiesTheServerOnceEveryPodServesIt() {
    ObservedRequests world = new ObservedRequests("pg", Json.object().put("instances", 2));
    world.spec.putObject("pooler");
    world.spec.putArray("users").addObject().put("name", "app");
    world.sync();
    world.runAllReady();
    world.sync();
    assertThat(world.children.get("Secret/pg.app").at("/data").has("pooler-uri")).isTrue();
    TestCertificates certs = TestCertificates.create();
    certs.ca("ca");
    certs.server("server", "ca", List.of("pg-rw.shop.svc", "pg-pooler.shop.svc"), 2);
    world.relatedSecrets.put(TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> {}));
    world.edit(spec -> spec.putObject("tls").put("secretName", TlsWorlds.SECRET));
    world.sync();
    assertThat(PoolersTest.config(world))
        .contains("server_tls_sslmode = require\n")
        .doesNotContain("server_tls_ca_file");
    JsonNode volumes = world.children.get("Deployment/pg-pooler").at("/spec/template/spec/volumes");
    assertThat(volumes.toString())
        .contains("{\"name\":\"tls\",\"secret\":{\"secretName\":\"" + TlsWorlds.SECRET + "\"");
    assertThat(
            world
                .children
                .get("Deployment/pg-pooler")
                .at("/spec/template/spec")
                .has("initContainers"))
        .isFalse();
    assertThat(
            dev.metahooks.controllers.postgres.base.SecretData.value(
                    world.children.get("Secret/pg.app"), "pooler-uri")
                .orElseThrow())
        .endsWith("?sslmode=verify-full&sslrootcert=/etc/postgresql-tls/ca.crt");

    // Every pod restarted with the Secret's certificate: now PgBouncer verifies the server too.
    ObjectNode template = (ObjectNode) world.statefulSet().at("/spec/template/spec");
    world.pods.values().forEach(pod -> pod.set("spec", template.deepCopy()));
    world.sync();
    assertThat(PoolersTest.config(world))
        .contains(
            "server_tls_sslmode = verify-full\nserver_tls_ca_file = /etc/pgbouncer/tls/ca.crt\n");

    // The pooler turned off: no pooler URIs in the user Secrets.
    world.edit(spec -> spec.withObjectProperty("pooler").put("enabled", false));
    world.sync();
    assertThat(world.children.get("Secret/pg.app").at("/data").has("pooler-uri")).isFalse();
    assertThat(world.children.get("Secret/pg.app").at("/data").has("pooler-jdbc-uri")).isFalse();
  }
}
