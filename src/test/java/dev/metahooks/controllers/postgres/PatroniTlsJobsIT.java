package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.jobs.Switchovers;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PatroniCluster;
import dev.metahooks.testsupport.PatroniVersion;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Patroni's REST API over TLS with the settings the StatefulSet hands to Spilo (SSL_RESTAPI_CERTIFICATE_FILE,
 * _PRIVATE_KEY_FILE, _CA_FILE: the TLS Secret's keys), on a real two-member Patroni cluster; the parameters and
 * switchover Jobs run exactly as rendered for it, PATRONI_URL included: curl's {@code connect-to} (in a
 * {@code .curlrc}) sends the cluster's DNS names to the local members, so curl still verifies the certificate for
 * the rendered host name, against the CA the Job mounts (only that file's path is local). On each
 * {@link PatroniVersion}.
 */
@ParameterizedClass
@EnumSource(PatroniVersion.class)
class PatroniTlsJobsIT {
  @Parameter PatroniVersion version;

  private static ObservedRequests world;
  private static PatroniCluster patroni;
  private static TestCertificates certs;
  private static Path curlHome;

  @BeforeParameterizedClassInvocation
  static void startPatroni(PatroniVersion version) throws IOException {
    certs = TestCertificates.create();
    certs.ca("ca");
    certs.ca("other-ca");
    certs.server(
        "server", "ca", List.of("orders-hl.shop.svc", "*.orders-hl.shop.svc", "127.0.0.1"), 2);
    ObjectNode spec = Json.object().put("instances", 2);
    spec.putObject("tls").put("secretName", TlsWorlds.SECRET).put("restApi", true);
    spec.putObject("postgresql").putObject("parameters").put("work_mem", "12MB");
    world = new ObservedRequests("orders", spec);
    world.relatedSecrets.put(TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> {}));
    world.sync();
    Map<String, String> env =
        TlsWorlds.env(world.statefulSet().at("/spec/template/spec/containers/0"));
    String password =
        SecretData.value(world.children.get("Secret/" + Names.restApiSecret("orders")), "password")
            .orElseThrow();
    patroni =
        PatroniCluster.start(
            version,
            "orders",
            2,
            Spilo.RESTAPI_USER,
            password,
            Map.of("shared_buffers", "16MB", "max_connections", "30"),
            Optional.of(
                new PatroniCluster.RestTls(
                    mounted(env.get("SSL_RESTAPI_CERTIFICATE_FILE")),
                    mounted(env.get("SSL_RESTAPI_PRIVATE_KEY_FILE")),
                    mounted(env.get("SSL_RESTAPI_CA_FILE")))));
    curlHome = Files.createDirectories(certs.dir().resolve("curl-home"));
    StringBuilder curlrc = new StringBuilder();
    curlrc
        .append("connect-to = \"orders-hl.shop.svc:8008:127.0.0.1:")
        .append(patroni.restPort(0))
        .append("\"\n");
    for (int i = 0; i < patroni.size(); i++) {
      curlrc
          .append("connect-to = \"orders-")
          .append(i)
          .append(".orders-hl.shop.svc:8008:127.0.0.1:")
          .append(patroni.restPort(i))
          .append("\"\n");
    }
    Files.writeString(curlHome.resolve(".curlrc"), curlrc);
  }

  /** The local file for a path under the TLS mount: the Secret's key of that name. */
  private static Path mounted(String path) {
    assertThat(path).startsWith(Spilo.TLS_MOUNT + "/");
    String key = path.substring(Spilo.TLS_MOUNT.length() + 1);
    return certs
        .dir()
        .resolve(
            Map.of(TlsSpec.CERT, "server.crt", TlsSpec.KEY, "server.key", TlsSpec.CA, "ca.crt")
                .get(key));
  }

  @AfterParameterizedClassInvocation
  static void stopPatroni() {
    if (patroni != null) {
      patroni.close();
      patroni = null;
    }
  }

  @Test
  void theRestApiIsHttpsOnlyAndTheParametersJobReloadsOverIt() {
    // Plain http to a TLS listener gets no answer.
    PostgresServer.Result plain =
        PostgresServer.exec(
            List.of(
                "curl",
                "-sS",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "http://127.0.0.1:" + patroni.restPort(0) + "/patroni"),
            Map.of(),
            Duration.ofSeconds(30));
    assertThat(plain.output()).doesNotContain("200");

    ObjectNode job =
        world.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/orders-parameters-"))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElseThrow();
    PostgresServer.Result patched = run(job, Map.of());
    assertThat(patched.exitCode()).as(patched.output()).isZero();
    assertThat(patched.output()).contains("PATCH /config: HTTP 200");
    patroni.await(
        Duration.ofSeconds(30),
        "work_mem reloaded on every member",
        c -> {
          for (int i = 0; i < c.size(); i++) {
            if (!c.query(i, "SHOW work_mem").equals("12MB")) {
              return false;
            }
          }
          return true;
        });
  }

  @Test
  void theSwitchoverJobTrustsOnlyTheSecretsCa() {
    String leader = patroni.leader().orElseThrow();
    String candidate = leader.equals("orders-0") ? "orders-1" : "orders-0";
    ObjectNode job =
        Switchovers.job(
            "orders",
            ObservedRequests.NAMESPACE,
            ClusterSpec.DEFAULT_IMAGE,
            PodScheduling.NONE,
            new Rollout.Switchover(
                Names.switchoverJob("orders", "orders-5d8f9c7b6", leader),
                leader,
                candidate,
                Optional.of(TlsWorlds.SECRET)));

    PostgresServer.Result untrusted =
        run(job, Map.of("CURL_CA_BUNDLE", certs.dir().resolve("other-ca.crt").toString()));
    assertThat(untrusted.exitCode()).as(untrusted.output()).isNotZero();
    assertThat(untrusted.output()).contains("HTTP 000");
    assertThat(patroni.leader()).contains(leader);

    PostgresServer.Result moved = run(job, Map.of());
    PatroniJobsIT.assertSwitchedOver(moved, candidate);
    assertThat(patroni.leader()).contains(candidate);
    // Patroni's own calls between the members go over TLS too (verified with restapi.cafile): the
    // old leader rejoins.
    patroni.await(
        Duration.ofSeconds(60), "the old leader streaming", c -> c.streamingReplicas() == 1);
  }

  /**
   * Runs the Job's container as the kubelet starts it (references from the world's Secrets); CURL_CA_BUNDLE names
   * the Job's mounted ca.crt, here the local copy; {@code overrides} replace values.
   */
  private static PostgresServer.Result run(ObjectNode job, Map<String, String> overrides) {
    JsonNode pod = job.at("/spec/template/spec");
    assertThat(pod.at("/volumes/0/secret/secretName").asText()).isEqualTo(TlsWorlds.SECRET);
    assertThat(pod.at("/volumes/0/secret/items/0/key").asText()).isEqualTo(TlsSpec.CA);
    Kubelet.Container container =
        RenderedContainers.of(world, job, pod.at("/containers/0/name").asText(), List.of());
    Map<String, String> env = container.environment();
    assertThat(env.get("PATRONI_URL")).startsWith("https://").endsWith("orders-hl.shop.svc:8008");
    assertThat(env.get("CURL_CA_BUNDLE")).isEqualTo(Spilo.TLS_MOUNT + "/" + TlsSpec.CA);
    Map<String, String> local = new HashMap<>();
    local.put("CURL_CA_BUNDLE", certs.dir().resolve("ca.crt").toString());
    local.put("CURL_HOME", curlHome.toString());
    if (env.containsKey(ParameterJobs.EXPECTED_VARIABLE)) {
      // The read-back reaches each member at the address GET /cluster gives.
      local.putAll(patroni.superuserClientEnvironment());
    }
    local.putAll(overrides);
    return RenderedContainers.run(container, local, Duration.ofMinutes(6));
  }
}
