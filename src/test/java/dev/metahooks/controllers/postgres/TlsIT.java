package dev.metahooks.controllers.postgres;

import static dev.metahooks.controllers.postgres.TlsWorlds.*;
import static dev.metahooks.controllers.postgres.children.access.SecretsTest.decoded;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.jobs.Switchovers;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.controllers.postgres.status.Conditions;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.TestCertificates;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * spec.tls on the emulated cluster: the TLS Secret missing, then added, gone bad, the TLS turned off again;
 * what the pods, the user Secrets, the Jobs and the TLSReady condition show at each step. The certificates are made
 * by openssl (a process), so it runs with the integration tests.
 */
class TlsIT {
  private static TestCertificates certs;

  @BeforeAll
  static void certificates() {
    certs = TestCertificates.create();
    certs.ca("ca");
    certs.server(
        "server",
        "ca",
        List.of("orders-rw.shop.svc", "*.orders-hl.shop.svc", "orders-hl.shop.svc"),
        2);
  }

  /** {@link TlsWorlds#running()} with a valid TLS Secret, rolled out. */
  private static ObservedRequests runningWithTls() {
    ObservedRequests world = running();
    world.edit(spec -> spec.putObject("tls").put("secretName", SECRET));
    world.relatedSecrets.put(SECRET, tlsSecret(certs, keys -> {}));
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  @Test
  void withoutTlsNothingChangesAndThereIsNoCondition() {
    ObservedRequests world = running();
    JsonNode answer = world.call(false);
    assertThat(condition(answer, Conditions.TLS_READY).isEmpty()).isTrue();
    assertThat(env(postgres(answer)))
        .doesNotContainKeys("SSL_CERTIFICATE_FILE", "SSL_RESTAPI_CERTIFICATE_FILE");
    assertThat(decoded(child(answer, "Secret", "orders.shop"), "uri")).endsWith("?sslmode=require");
    assertThat(
            PostgresClusterController.customize(CustomizeRequest.read(customize(world)))
                .relatedResources())
        .extracting(rule -> rule.resource())
        .containsExactly(
            "pods", "configmaps", "postgresclusters", "persistentvolumeclaims", "storageclasses");
  }

  @Test
  void aMissingSecretIsReportedAndRestartsNothingUntilItAppears() {
    ObservedRequests world = running();
    Map<String, String> before = uids(world);
    JsonNode template = world.statefulSet().at("/spec/template").deepCopy();
    world.edit(spec -> spec.putObject("tls").put("secretName", SECRET));
    assertThat(
            PostgresClusterController.customize(CustomizeRequest.read(customize(world)))
                .relatedResources())
        .anySatisfy(
            rule -> {
              assertThat(rule.resource()).isEqualTo("secrets");
              assertThat(rule.labelSelector()).isEqualTo(SecretMarks.selector("orders"));
            });

    JsonNode missing = world.sync();
    assertThat(condition(missing, Conditions.TLS_READY).path("status").asText()).isEqualTo("False");
    assertThat(condition(missing, Conditions.TLS_READY).path("reason").asText())
        .isEqualTo("SecretMissing");
    assertThat(condition(missing, Conditions.TLS_READY).path("message").asText())
        .contains("Secret orders-tls", "shop");
    assertThat(world.statefulSet().at("/spec/template"))
        .as("no pod restarts for a Secret that is not there")
        .isEqualTo(template);
    assertThat(decoded(world.children.get("Secret/orders.shop"), "uri"))
        .endsWith("?sslmode=require");
    // A resync of the same world answers the same: nothing loops.
    assertThat(world.call(false)).isEqualTo(missing);

    world.relatedSecrets.put(SECRET, tlsSecret(certs, keys -> {}));
    JsonNode added = world.sync();
    assertThat(condition(added, Conditions.TLS_READY).path("status").asText()).isEqualTo("True");
    assertThat(condition(added, Conditions.TLS_READY).path("reason").asText())
        .isEqualTo("SecretValid");
    assertThat(condition(added, Conditions.TLS_READY).path("message").asText())
        .contains("CN=orders-rw.shop.svc");
    JsonNode pod = child(added, "StatefulSet", "orders").at("/spec/template/spec");
    KubeSchema.assertValid(child(added, "StatefulSet", "orders"));
    assertThat(pod.path("volumes"))
        .contains(
            json(
                "{\"name\":\"tls\",\"secret\":{\"secretName\":\"orders-tls\","
                    + "\"defaultMode\":416}}"));
    assertThat(postgres(added).path("volumeMounts"))
        .contains(json("{\"name\":\"tls\",\"mountPath\":\"/tls\",\"readOnly\":true}"));
    assertThat(env(postgres(added)))
        .containsEntry("SSL_CERTIFICATE_FILE", "/tls/tls.crt")
        .containsEntry("SSL_PRIVATE_KEY_FILE", "/tls/tls.key")
        .containsEntry("SSL_TEST_RELOAD", "true")
        .doesNotContainKeys("SSL_RESTAPI_CERTIFICATE_FILE", "RESTAPI_CONNECT_ADDRESS");
    assertThat(added.at("/status/conditions").toString()).contains("RollingUpdate");

    ObjectNode user = world.children.get("Secret/orders.shop");
    KubeSchema.assertValid(user);
    String password = decoded(user, "password");
    assertThat(decoded(user, "uri"))
        .isEqualTo(
            "postgresql://shop:"
                + password
                + "@orders-rw.shop.svc:5432/shop?sslmode=verify-full&sslrootcert=/etc/postgresql-tls/ca.crt");
    assertThat(decoded(user, "jdbc-uri"))
        .isEqualTo(
            "jdbc:postgresql://orders-rw.shop.svc:5432/shop?user=shop&password="
                + password
                + "&sslmode=verify-full&sslrootcert=/etc/postgresql-tls/ca.crt");
    assertThat(decoded(user, "ca.crt")).isEqualTo(certs.pem("ca.crt"));
    assertThat(uids(world))
        .as("Secrets and the StatefulSet updated in place, none recreated")
        .isEqualTo(before);
    assertThat(world.statefulSet().at("/spec/volumeClaimTemplates"))
        .isEqualTo(child(added, "StatefulSet", "orders").at("/spec/volumeClaimTemplates"));
  }

  @Test
  void aSecretThatGoesBadLeavesThePodsAsTheyAre() {
    ObservedRequests world = runningWithTls();
    JsonNode template = world.statefulSet().at("/spec/template").deepCopy();
    String uri = decoded(world.children.get("Secret/orders.shop"), "uri");

    world.relatedSecrets.put(SECRET, tlsSecret(certs, keys -> keys.remove(TlsSpec.CA)));
    JsonNode noCa = world.sync();
    assertThat(condition(noCa, Conditions.TLS_READY).path("reason").asText())
        .isEqualTo("SecretInvalid");
    assertThat(condition(noCa, Conditions.TLS_READY).path("message").asText())
        .contains("Secret orders-tls has no ca.crt");
    assertThat(world.statefulSet().at("/spec/template")).isEqualTo(template);
    assertThat(decoded(world.children.get("Secret/orders.shop"), "uri")).isEqualTo(uri);
    assertThat(decoded(world.children.get("Secret/orders.shop"), "ca.crt"))
        .isEqualTo(certs.pem("ca.crt"));

    world.relatedSecrets.remove(SECRET);
    JsonNode gone = world.sync();
    assertThat(condition(gone, Conditions.TLS_READY).path("reason").asText())
        .isEqualTo("SecretMissing");
    assertThat(world.statefulSet().at("/spec/template")).isEqualTo(template);
  }

  @Test
  void invalidSecretsAreNamedWithWhatIsWrong() {
    Map<Consumer<ObjectNode>, String> cases = new java.util.LinkedHashMap<>();
    cases.put(secret -> secret.put("type", "Opaque"), "is of type Opaque, not kubernetes.io/tls");
    cases.put(secret -> ((ObjectNode) secret.get("data")).remove(TlsSpec.KEY), "has no tls.key");
    cases.put(
        secret -> ((ObjectNode) secret.get("data")).put(TlsSpec.CERT, "bm90IGEgY2VydA=="),
        "has a tls.crt that is not a PEM certificate");
    cases.put(secret -> ((ObjectNode) secret.get("data")).put(TlsSpec.CA, "%%%"), "has no ca.crt");
    cases.put(
        secret -> ((ObjectNode) secret.get("data")).put(TlsSpec.KEY, "bm90IGEga2V5"),
        "has a tls.key that is not a PEM private key");
    cases.forEach(
        (change, message) -> {
          ObservedRequests world = running();
          JsonNode template = world.statefulSet().at("/spec/template").deepCopy();
          world.edit(spec -> spec.putObject("tls").put("secretName", SECRET));
          ObjectNode secret = tlsSecret(certs, keys -> {});
          change.accept(secret);
          world.relatedSecrets.put(SECRET, secret);
          JsonNode answer = world.sync();
          assertThat(condition(answer, Conditions.TLS_READY).path("reason").asText())
              .as(message)
              .isEqualTo("SecretInvalid");
          assertThat(condition(answer, Conditions.TLS_READY).path("message").asText())
              .contains(message);
          assertThat(world.statefulSet().at("/spec/template")).as(message).isEqualTo(template);
        });

    // An expired certificate, by the hook's clock.
    ObservedRequests world = running();
    world.edit(spec -> spec.putObject("tls").put("secretName", SECRET));
    world.relatedSecrets.put(SECRET, tlsSecret(certs, keys -> {}));
    Instant later = Instant.now().plus(Duration.ofDays(30));
    world.sources =
        new Sources() {
          @Override
          public Instant now() {
            return later;
          }

          @Override
          public String secret(String purpose, int length) {
            return FixedSources.INSTANCE.secret(purpose, length);
          }
        };
    JsonNode expired = world.sync();
    assertThat(condition(expired, Conditions.TLS_READY).path("message").asText())
        .contains("has a tls.crt that expired at");
  }

  @Test
  void turningTlsOffGoesBackToRequireInPlace() {
    ObservedRequests world = runningWithTls();
    Map<String, String> before = uids(world);

    world.edit(spec -> spec.remove("tls"));
    JsonNode off = world.sync();
    assertThat(condition(off, Conditions.TLS_READY).isEmpty()).isTrue();
    assertThat(env(postgres(off)))
        .doesNotContainKeys("SSL_CERTIFICATE_FILE", "SSL_PRIVATE_KEY_FILE");
    assertThat(child(off, "StatefulSet", "orders").at("/spec/template/spec/volumes").toString())
        .doesNotContain("tls");
    ObjectNode user = world.children.get("Secret/orders.shop");
    assertThat(decoded(user, "uri")).endsWith("/shop?sslmode=require");
    assertThat(user.path("data").has("ca.crt")).isFalse();
    assertThat(uids(world)).isEqualTo(before);
  }

  @Test
  void restApiServesTheCertificateAndTheJobsCallItOverHttps() {
    ObservedRequests world = running();
    world.edit(
        spec -> {
          spec.putObject("tls").put("secretName", SECRET).put("restApi", true);
          spec.putObject("postgresql").putObject("parameters").put("work_mem", "8MB");
        });
    world.relatedSecrets.put(SECRET, tlsSecret(certs, keys -> {}));
    // First the pods learn to trust the CA while still serving http: an old leader that cannot
    // verify https
    // members would refuse the rollout's switchover to one of them.
    JsonNode trust = world.sync();
    JsonNode trustingPod = world.statefulSet().at("/spec/template/spec").deepCopy();
    assertThat(env(postgres(trust)))
        .containsEntry("SSL_RESTAPI_CA_FILE", "/tls/ca.crt")
        .doesNotContainKeys("SSL_RESTAPI_CERTIFICATE_FILE", "RESTAPI_CONNECT_ADDRESS");
    assertThat(postgres(trust).at("/readinessProbe/httpGet").has("scheme")).isFalse();
    assertThat(
            env(jobs(trust, ParameterJobs.COMPONENT).get(0).at("/spec/template/spec/containers/0")))
        .containsEntry("PATRONI_URL", "http://orders-hl.shop.svc:8008");
    // Once every pod runs that template, the REST API turns to https (a second rollout).
    world.runAllReady();
    world
        .pods
        .get("orders-0")
        .set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    world
        .pods
        .get("orders-1")
        .set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    assertThat(env(postgres(world.call(false))))
        .as("one pod still without the CA")
        .doesNotContainKey("SSL_RESTAPI_CERTIFICATE_FILE");
    world
        .pods
        .get("orders-2")
        .set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    JsonNode answer = world.sync();
    Map<String, String> env = env(postgres(answer));
    assertThat(env)
        .containsEntry("SSL_RESTAPI_CERTIFICATE_FILE", "/tls/tls.crt")
        .containsEntry("SSL_RESTAPI_PRIVATE_KEY_FILE", "/tls/tls.key")
        .containsEntry("SSL_RESTAPI_CA_FILE", "/tls/ca.crt")
        .containsEntry("RESTAPI_CONNECT_ADDRESS", "$(POD_NAME).orders-hl.shop.svc:8008");
    List<String> names = new ArrayList<>();
    postgres(answer).path("env").forEach(e -> names.add(e.path("name").asText()));
    assertThat(names.indexOf("POD_NAME"))
        .as("declared before the reference")
        .isLessThan(names.indexOf("RESTAPI_CONNECT_ADDRESS"));
    assertThat(postgres(answer).at("/readinessProbe/httpGet/scheme").asText()).isEqualTo("HTTPS");

    ObjectNode parameters = jobs(answer, ParameterJobs.COMPONENT).get(0);
    KubeSchema.assertValid(parameters);
    JsonNode container = parameters.at("/spec/template/spec/containers/0");
    assertThat(env(container))
        .containsEntry("PATRONI_URL", "https://orders-hl.shop.svc:8008")
        .containsEntry("CURL_CA_BUNDLE", "/tls/ca.crt");
    assertThat(parameters.at("/spec/template/spec/volumes"))
        .isEqualTo(
            json(
                "[{\"name\":\"tls\",\"secret\":"
                    + "{\"secretName\":\"orders-tls\",\"items\":[{\"key\":\"ca.crt\",\"path\":\"ca.crt\"}]}}]"));
    assertThat(RenderedContainers.of(world, parameters, ParameterJobs.CONTAINER, List.of()).argv())
        .containsExactly(
            "/bin/sh",
            "-c",
            ParameterJobs.SCRIPT,
            ParameterJobs.COMPONENT,
            ParameterJobs.READBACK_SQL);

    // The rollout reaches the leader, which still runs the trusting http template: its switchover
    // Job speaks http.
    world.runPods(Set.of(), 2, true);
    for (String replica : List.of("orders-0", "orders-1")) {
      ((ObjectNode) world.pods.get(replica).get("metadata"))
          .withObjectProperty("labels")
          .put(
              ObservedCluster.REVISION_LABEL,
              world.statefulSet().at("/status/updateRevision").asText());
    }
    world
        .pods
        .get("orders-0")
        .set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    world
        .pods
        .get("orders-1")
        .set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    world.pods.get("orders-2").set("spec", trustingPod.deepCopy());
    ObjectNode plain = jobs(world.sync(), Switchovers.COMPONENT).get(0);
    assertThat(env(plain.at("/spec/template/spec/containers/0")))
        .containsEntry("PATRONI_URL", "http://orders-2.orders-hl.shop.svc:8008")
        .doesNotContainKey("CURL_CA_BUNDLE");

    // A leader that serves https (its pod runs the https template) is called over https.
    ObjectNode leader = world.pods.get("orders-2");
    leader.set("spec", world.statefulSet().at("/spec/template/spec").deepCopy());
    world.children.keySet().removeIf(key -> key.startsWith("Job/orders-switchover-"));
    ObjectNode https = jobs(world.sync(), Switchovers.COMPONENT).get(0);
    KubeSchema.assertValid(https);
    assertThat(env(https.at("/spec/template/spec/containers/0")))
        .containsEntry("PATRONI_URL", "https://orders-2.orders-hl.shop.svc:8008")
        .containsEntry("CURL_CA_BUNDLE", "/tls/ca.crt");
  }
}
