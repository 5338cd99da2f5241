package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * A real Patroni cluster on loopback ports: one etcd (v3 API) as DCS and Patroni members {@code <scope>-0},
 * {@code <scope>-1}, ... of the given {@link PatroniVersion} that bootstrap PostgreSQL from Debian's packages, with
 * the REST API protected by the given credentials, as Spilo configures it. As root, etcd, Patroni and PostgreSQL
 * run as the {@code postgres} user. Without that Patroni or etcd the tests skip with a message saying what to
 * install, unless {@code CI} is set: then they fail.
 */
public final class PatroniCluster implements AutoCloseable {
  /**
   * The REST API over TLS, as Spilo configures it from SSL_RESTAPI_CERTIFICATE_FILE, _PRIVATE_KEY_FILE and
   * _CA_FILE: {@code restapi.certfile}, {@code keyfile} and {@code cafile} (which Patroni also trusts when it calls
   * the other members). The certificate must name 127.0.0.1, the members' connect address here.
   */
  public record RestTls(Path certfile, Path keyfile, Path cafile) {}

  private final HttpClient http;
  private final Optional<RestTls> tls;

  private final Path dir;

  /**
   * The members' Unix sockets: a short directory of its own under /tmp, as a socket's path must stay under 108
   * bytes (sun_path) and {@code dir} lies as deep as the checkout.
   */
  private final Path socketDir;

  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> restPorts = new ArrayList<>();
  private final List<Integer> postgresPorts = new ArrayList<>();
  private final String scope;
  private final Optional<String> user;
  private final Path bin;

  /** The command that starts a member's Patroni, without its configuration file. */
  private final List<String> patroniCommand;

  /** etcd's command line, to start it again after {@link #stopDcs}; etcd is the first process. */
  private List<String> dcsCommand = List.of();

  private int etcdPort;
  private boolean dcsStopped;

  private PatroniCluster(
      Path dir,
      Path socketDir,
      String scope,
      Optional<String> user,
      Path bin,
      Optional<RestTls> tls,
      List<String> patroniCommand) {
    this.patroniCommand = patroniCommand;
    this.dir = dir;
    this.socketDir = socketDir;
    this.scope = scope;
    this.user = user;
    this.bin = bin;
    this.tls = tls;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /**
   * Starts etcd and {@code members} Patroni members and waits until one leads and every other streams from it.
   *
   * @param parameters PostgreSQL settings of the bootstrap DCS configuration (Patroni's dynamic configuration:
   *     the local one sets none that a test changes, as local settings win over dynamic ones)
   */
  public static PatroniCluster start(
      PatroniVersion version,
      String scope,
      int members,
      String restUser,
      String restPassword,
      Map<String, String> parameters) {
    return start(
        version,
        scope,
        members,
        restUser,
        restPassword,
        parameters,
        Json.object(),
        Optional.empty());
  }

  /**
   * As {@link #start(PatroniVersion, String, int, String, String, Map)}, with the REST API over TLS when {@code tls}
   * is given.
   */
  public static PatroniCluster start(
      PatroniVersion version,
      String scope,
      int members,
      String restUser,
      String restPassword,
      Map<String, String> parameters,
      Optional<RestTls> tls) {
    return start(version, scope, members, restUser, restPassword, parameters, Json.object(), tls);
  }

  /**
   * The same, with more of Patroni's dynamic configuration at bootstrap ({@code bootstrap.dcs}: failsafe_mode,
   * synchronous_mode, ...), as the rendered SPILO_CONFIGURATION gives it.
   */
  public static PatroniCluster start(
      PatroniVersion version,
      String scope,
      int members,
      String restUser,
      String restPassword,
      Map<String, String> parameters,
      ObjectNode bootstrapDcs) {
    return start(
        version,
        scope,
        members,
        restUser,
        restPassword,
        parameters,
        bootstrapDcs,
        Optional.empty());
  }

  /** Bootstrap DCS settings and, when given, the REST API over TLS. */
  public static PatroniCluster start(
      PatroniVersion version,
      String scope,
      int members,
      String restUser,
      String restPassword,
      Map<String, String> parameters,
      ObjectNode bootstrapDcs,
      Optional<RestTls> tls) {
    return start(
        version,
        scope,
        members,
        restUser,
        restPassword,
        parameters,
        bootstrapDcs,
        tls,
        (index, member) -> Json.object());
  }

  /**
   * The most general form: also settings of each member's own configuration ({@code memberSettings} gets the
   * member's index and directory, which exists; each top-level object it returns, {@code bootstrap} or
   * {@code postgresql}, is merged over the member's, field by field).
   */
  public static PatroniCluster start(
      PatroniVersion version,
      String scope,
      int members,
      String restUser,
      String restPassword,
      Map<String, String> parameters,
      ObjectNode bootstrapDcs,
      Optional<RestTls> tls,
      BiFunction<Integer, Path, ObjectNode> memberSettings) {
    Optional<Path> bin = PostgresServer.binaries();
    if (bin.isEmpty() || !onPath("etcd")) {
      throw MissingComponent.skipOrFail(
          (bin.isEmpty() ? "PostgreSQL" : "etcd")
              + " is not installed; install "
              + "Debian's packages patroni, etcd-server and postgresql to run the Patroni tests");
    }
    if (!version.installed()) {
      throw MissingComponent.skipOrFail(
          version
              + " is not installed; "
              + version.installHint()
              + " to run the Patroni tests on it");
    }
    try {
      Optional<String> user =
          PostgresServer.isRoot()
              ? Optional.of(PostgresServer.unprivilegedUser())
              : Optional.empty();
      Path dir = PostgresServer.workDirectory(user, "patroni", "cluster-");
      // The certificate's files go where the members' user can read them (the work directory is
      // chowned below).
      Optional<RestTls> copied =
          tls.isEmpty()
              ? Optional.empty()
              : Optional.of(
                  new RestTls(
                      Files.copy(tls.get().certfile(), dir.resolve("restapi.crt")),
                      Files.copy(tls.get().keyfile(), dir.resolve("restapi.key")),
                      Files.copy(tls.get().cafile(), dir.resolve("restapi-ca.crt"))));
      Path socketDir = Files.createTempDirectory(Path.of("/tmp"), "mh");
      PatroniCluster cluster =
          new PatroniCluster(dir, socketDir, scope, user, bin.get(), copied, version.command(user));
      try {
        user.ifPresent(
            u ->
                PostgresServer.run(
                    List.of("chown", "-R", u + ":", dir.toString(), socketDir.toString()),
                    Map.of(),
                    Duration.ofSeconds(30)));
        cluster.processes.add(cluster.startDcs(user));
        int etcdPort = cluster.etcdPort;
        for (int i = 0; i < members; i++) {
          int restPort = PostgresServer.freePort();
          cluster.restPorts.add(restPort);
          Path config = dir.resolve(scope + "-" + i + ".yml");
          int postgresPort = PostgresServer.freePort();
          cluster.postgresPorts.add(postgresPort);
          ObjectNode memberConfig =
              cluster.config(
                  i,
                  restPort,
                  postgresPort,
                  etcdPort,
                  bin.get(),
                  restUser,
                  restPassword,
                  parameters,
                  bootstrapDcs);
          Path member = Files.createDirectories(dir.resolve("member-" + i));
          memberSettings
              .apply(i, member)
              .properties()
              .forEach(
                  setting ->
                      memberConfig
                          .withObjectProperty(setting.getKey())
                          .setAll((ObjectNode) setting.getValue()));
          Files.writeString(config, memberConfig.toPrettyString());
          user.ifPresent(
              u ->
                  PostgresServer.run(
                      List.of("chown", "-R", u + ":", config.toString(), member.toString()),
                      Map.of(),
                      Duration.ofSeconds(10)));
          cluster.processes.add(
              cluster.launch(user, scope + "-" + i, cluster.patroniCommand(config)));
          // The first member bootstraps alone, so that the others join it as replicas.
          if (i == 0) {
            cluster.await(Duration.ofSeconds(90), "a leader", c -> c.leader().isPresent());
          }
        }
        cluster.await(
            Duration.ofSeconds(90),
            "every member streaming",
            c -> c.streamingReplicas() == members - 1);
        return cluster;
      } catch (RuntimeException | AssertionError | IOException e) {
        // A member that never became ready (await's AssertionError) is stopped as well.
        String logs = cluster.logs();
        cluster.close();
        throw new IllegalStateException(
            "the Patroni cluster did not start: " + e.getMessage() + "\n" + logs, e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> patroniCommand(Path config) {
    List<String> command = new ArrayList<>(patroniCommand);
    command.add(config.toString());
    return command;
  }

  private static boolean onPath(String tool) {
    return PostgresServer.exec(
                List.of("sh", "-c", "command -v " + tool), Map.of(), Duration.ofSeconds(10))
            .exitCode()
        == 0;
  }

  /** Patroni's YAML (JSON is YAML): short timings, so that a switchover takes seconds, and no fsync. */
  private ObjectNode config(
      int index,
      int restPort,
      int pgPort,
      int etcdPort,
      Path bin,
      String restUser,
      String restPassword,
      Map<String, String> parameters,
      ObjectNode bootstrapDcs) {
    Path member = dir.resolve("member-" + index);
    ObjectNode config = Json.object().put("scope", scope).put("name", scope + "-" + index);
    ObjectNode restapi =
        config
            .putObject("restapi")
            .put("listen", "127.0.0.1:" + restPort)
            .put("connect_address", "127.0.0.1:" + restPort);
    restapi.putObject("authentication").put("username", restUser).put("password", restPassword);
    tls.ifPresent(
        t ->
            restapi
                .put("certfile", t.certfile().toString())
                .put("keyfile", t.keyfile().toString())
                .put("cafile", t.cafile().toString()));
    config.putObject("etcd3").put("hosts", "127.0.0.1:" + etcdPort);
    ObjectNode dcs =
        config
            .putObject("bootstrap")
            .putObject("dcs")
            .put("ttl", 20)
            .put("loop_wait", 1)
            .put("retry_timeout", 5)
            .put("maximum_lag_on_failover", 1048576);
    // As Spilo: an old leader whose last WAL did not reach the new one before the switchover is
    // rewound to follow it.
    ObjectNode dcsParameters =
        dcs.putObject("postgresql").put("use_pg_rewind", true).putObject("parameters");
    parameters.forEach(dcsParameters::put);
    bootstrapDcs.properties().forEach(setting -> dcs.set(setting.getKey(), setting.getValue()));
    ArrayNode initdb = config.withObjectProperty("bootstrap").putArray("initdb");
    initdb.addObject().put("encoding", "UTF8");
    initdb.addObject().put("locale", "C");
    ObjectNode postgresql =
        config
            .putObject("postgresql")
            .put("listen", "127.0.0.1:" + pgPort)
            .put("connect_address", "127.0.0.1:" + pgPort)
            .put("data_dir", member.resolve("data").toString())
            .put("bin_dir", bin.toString())
            .put("pgpass", member.resolve("pgpass").toString());
    ObjectNode authentication = postgresql.putObject("authentication");
    authentication
        .putObject("superuser")
        .put("username", "postgres")
        .put("password", superuserPassword());
    authentication
        .putObject("replication")
        .put("username", "standby")
        .put("password", "standby-" + scope);
    postgresql
        .putArray("pg_hba")
        .add("local all all trust")
        .add("host all all 127.0.0.1/32 scram-sha-256")
        .add("host replication standby 127.0.0.1/32 scram-sha-256");
    postgresql
        .putObject("parameters")
        .put("unix_socket_directories", socketDir.toString())
        .put("fsync", "off");
    return config;
  }

  /**
   * etcd on two free ports. A port found free can be taken before etcd binds it (by an outgoing connection's
   * ephemeral port, say): then etcd exits at once, and it is started again on other ports.
   */
  private Process startDcs(Optional<String> user) throws IOException {
    for (int attempt = 1; ; attempt++) {
      int clientPort = PostgresServer.freePort();
      int peerPort = PostgresServer.freePort();
      etcdPort = clientPort;
      dcsCommand =
          List.of(
              "etcd",
              "--name",
              "dcs",
              "--data-dir",
              dir.resolve(attempt == 1 ? "etcd" : "etcd-" + attempt).toString(),
              "--listen-client-urls",
              "http://127.0.0.1:" + clientPort,
              "--advertise-client-urls",
              "http://127.0.0.1:" + clientPort,
              "--listen-peer-urls",
              "http://127.0.0.1:" + peerPort,
              "--initial-advertise-peer-urls",
              "http://127.0.0.1:" + peerPort,
              "--initial-cluster",
              "dcs=http://127.0.0.1:" + peerPort);
      Process etcd = launch(user, "etcd", dcsCommand);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (etcd.isAlive() && Instant.now().isBefore(deadline)) {
        if (send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + clientPort + "/version")))
                .status()
            == 200) {
          return etcd;
        }
        PostgresServer.sleep(Duration.ofMillis(100));
      }
      etcd.destroyForcibly();
      if (attempt == 3) {
        throw new IllegalStateException("etcd did not start, three times on other ports");
      }
    }
  }

  private Process launch(Optional<String> user, String name, List<String> command)
      throws IOException {
    Path log = dir.resolve(name + ".log");
    return new ProcessBuilder(PostgresServer.as(user, command))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .directory(dir.toFile())
        .start();
  }

  /** A member's directory: its data directory is {@code data} below it. */
  public Path memberDirectory(int index) {
    return dir.resolve("member-" + index);
  }

  /** Stops etcd: the outage of the DCS (for Patroni on Kubernetes, of the API server). */
  public void stopDcs() {
    dcsStopped = true;
    stop(processes.get(0));
  }

  /** Starts etcd again on its data directory and port. */
  public void startDcs() {
    try {
      processes.set(0, launch(user, "etcd", dcsCommand));
      dcsStopped = false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs SQL as the superuser on member {@code index} (over its socket); the unaligned, tuples-only output. */
  public String query(int index, String sql) {
    PostgresServer.Result result =
        PostgresServer.exec(
            PostgresServer.as(
                user,
                List.of(
                    bin.resolve("psql").toString(),
                    "-X",
                    "-At",
                    "-h",
                    socketDir.toString(),
                    "-p",
                    String.valueOf(postgresPorts.get(index)),
                    "-U",
                    "postgres",
                    "-d",
                    "postgres",
                    "-c",
                    sql)),
            Map.of(),
            Duration.ofSeconds(30));
    if (result.exitCode() != 0) {
      throw new AssertionError("psql on member " + index + " failed: " + result.output());
    }
    return result.output().strip();
  }

  /** The REST API base URL of member {@code index}. */
  public String restUrl(int index) {
    return (tls.isPresent() ? "https" : "http") + "://127.0.0.1:" + restPorts.get(index);
  }

  /** The PostgreSQL port of member {@code index} (on 127.0.0.1). */
  public int postgresPort(int index) {
    return postgresPorts.get(index);
  }

  /** The REST API port of member {@code index}. */
  public int restPort(int index) {
    return restPorts.get(index);
  }

  public int size() {
    return restPorts.size();
  }

  /** GET on a member's REST API: status code and body. */
  public Response get(int index, String path) {
    if (tls.isPresent()) {
      return curl("GET", restUrl(index) + path, null, Optional.empty());
    }
    return send(HttpRequest.newBuilder(URI.create(restUrl(index) + path)).GET());
  }

  /** A request without credentials, as anyone on the network could send it. */
  public Response unauthenticated(int index, String method, String path, String body) {
    return request(index, method, path, body, Optional.empty());
  }

  /** A request with the REST API's basic-auth credentials, as patronictl sends it. */
  public Response authenticated(
      int index, String method, String path, String body, String user, String password) {
    return request(index, method, path, body, Optional.of(user + ":" + password));
  }

  private Response request(
      int index, String method, String path, String body, Optional<String> credentials) {
    if (tls.isPresent()) {
      return curl(method, restUrl(index) + path, body, credentials);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(restUrl(index) + path))
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body));
    credentials.ifPresent(
        pair ->
            request.header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))));
    return send(request);
  }

  /**
   * Over TLS the harness asks curl, trusting the CA: the JDK's HttpClient waited forever (past its request timeout)
   * for Patroni's TLS answers on this machine.
   */
  private Response curl(String method, String url, String body, Optional<String> credentials) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "curl",
                "-sS",
                "--max-time",
                "30",
                "--cacert",
                tls.orElseThrow().cafile().toString(),
                "-X",
                method,
                "-w",
                "\n%{http_code}"));
    credentials.ifPresent(pair -> command.addAll(List.of("-u", pair)));
    if (body != null) {
      command.addAll(List.of("-H", "Content-Type: application/json", "-d", body));
    }
    command.add(url);
    PostgresServer.Result result = PostgresServer.exec(command, Map.of(), Duration.ofSeconds(60));
    String output = result.output();
    int newline = output.lastIndexOf('\n');
    String code = output.substring(newline + 1).strip();
    return new Response(
        result.exitCode() == 0 && code.matches("[0-9]{3}") ? Integer.parseInt(code) : 0,
        newline < 0 ? output : output.substring(0, newline));
  }

  private Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          http.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body());
    } catch (IOException e) {
      return new Response(0, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Response(0, "interrupted");
    }
  }

  public record Response(int status, String body) {
    public JsonNode json() {
      try {
        return JsonTrees.MAPPER.readTree(body);
      } catch (IOException e) {
        return Json.object();
      }
    }
  }

  /** Patroni's view of the cluster ({@code GET /cluster}) from the first member that answers. */
  public JsonNode cluster() {
    for (int i = 0; i < size(); i++) {
      Response response = get(i, "/cluster");
      if (response.status() == 200) {
        return response.json();
      }
    }
    return Json.object();
  }

  /**
   * A member's data as its Patroni wrote it into the DCS: the JSON text of ha.py touch_member's {@code data}
   * (dcs/etcd3.py v3.0.2:743 {@code json.dumps(data, separators=(',', ':'))}), the same text that Patroni on
   * Kubernetes writes into the pod's {@code status} annotation (dcs/kubernetes.py v3.0.2:1230). Read through etcd's
   * JSON gateway ({@code POST /v3/kv/range}, key and value base64) under Patroni's default namespace
   * {@code /service/}.
   */
  public String memberData(String member) {
    java.util.Base64.Encoder base64 = java.util.Base64.getEncoder();
    String key =
        base64.encodeToString(
            ("/service/" + scope + "/members/" + member).getBytes(StandardCharsets.UTF_8));
    Response range =
        send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + etcdPort + "/v3/kv/range"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"" + key + "\"}")));
    JsonNode kvs = range.json().path("kvs");
    if (range.status() != 200 || kvs.isEmpty()) {
      throw new IllegalStateException("no member " + member + " in etcd: " + range.body());
    }
    return new String(
        java.util.Base64.getDecoder().decode(kvs.get(0).path("value").asText()),
        StandardCharsets.UTF_8);
  }

  /** The members' superuser password (postgresql.authentication.superuser). */
  public String superuserPassword() {
    return "superuser-" + scope;
  }

  /** PostgreSQL's bin directory, with psql. */
  public Path bin() {
    return bin;
  }

  /** What a client of the members needs here: no TLS (the members serve none), and psql on the path. */
  public Map<String, String> clientEnvironment() {
    return Map.of("PGSSLMODE", "disable", "PATH", bin + ":" + System.getenv("PATH"));
  }

  /** The same for a Job that connects to each member as the superuser: with the members' password as well. */
  public Map<String, String> superuserClientEnvironment() {
    Map<String, String> env = new HashMap<>(clientEnvironment());
    env.put("PGPASSWORD", superuserPassword());
    return env;
  }

  /** The member that holds the leader lock (in a standby cluster: the standby leader). */
  public Optional<String> leader() {
    for (JsonNode member : cluster().path("members")) {
      String role = member.path("role").asText();
      if ((role.equals("leader") || role.equals("standby_leader")) && runs(member)) {
        return Optional.of(member.path("name").asText());
      }
    }
    return Optional.empty();
  }

  /**
   * Whether a member of {@code GET /cluster} runs PostgreSQL. Patroni 3.0 gives every member's own state
   * ({@code running}; utils.py cluster_as_json, v3.0.2:420); since 3.1 a member other than the leader shows its
   * replication state instead while it has one, {@code streaming} or {@code in archive recovery} (utils.py
   * v4.1.5:967; postgresql/__init__.py v4.1.5:570-593 replication_state_from_parameters), which it publishes only
   * while PostgreSQL runs (ha.py v4.1.5:463-477).
   */
  private static boolean runs(JsonNode member) {
    return List.of("running", "streaming", "in archive recovery")
        .contains(member.path("state").asText());
  }

  /** The index of a member by name. */
  public int index(String member) {
    return Integer.parseInt(member.substring(member.lastIndexOf('-') + 1));
  }

  /** Replicas that run and replicate from the leader (Patroni's /readiness answers 200 for them). */
  public int streamingReplicas() {
    int streaming = 0;
    for (JsonNode member : cluster().path("members")) {
      if ("replica".equals(member.path("role").asText())
          && runs(member)
          && get(index(member.path("name").asText()), "/readiness").status() == 200
          && member.path("lag").isNumber()) {
        streaming++;
      }
    }
    return streaming;
  }

  /**
   * Polls until every replica streams and no member's server has restarted for {@code quiet}: a
   * member that rejoins after a switchover can restart once more after it first streams.
   */
  public void awaitSettled(Duration timeout, Duration quiet) {
    var window =
        new Object() {
          List<String> starts;
          Instant since = Instant.now();
        };
    await(
        timeout,
        "every member streaming and unrestarted for " + quiet,
        c -> {
          List<String> starts = c.startTimesIfStreaming();
          if (starts == null || !starts.equals(window.starts)) {
            window.starts = starts;
            window.since = Instant.now();
            return false;
          }
          return Duration.between(window.since, Instant.now()).compareTo(quiet) >= 0;
        });
  }

  /** Each member's server start time, or null while a replica does not stream or a member is down. */
  private List<String> startTimesIfStreaming() {
    if (streamingReplicas() != size() - 1) {
      return null;
    }
    List<String> starts = new ArrayList<>();
    for (int i = 0; i < size(); i++) {
      try {
        starts.add(query(i, "SELECT pg_postmaster_start_time()"));
      } catch (AssertionError | RuntimeException e) {
        return null;
      }
    }
    return starts;
  }

  /** Polls until the condition holds; fails after the timeout, naming what it waited for. */
  public void await(Duration timeout, String what, Predicate<PatroniCluster> condition) {
    Instant deadline = Instant.now().plus(timeout);
    while (!condition.test(this)) {
      if (Instant.now().isAfter(deadline)
          || processes.stream().skip(dcsStopped ? 1 : 0).anyMatch(p -> !p.isAlive())) {
        throw new AssertionError(
            "waited " + timeout + " for " + what + "; cluster: " + cluster() + "\n" + logs());
      }
      PostgresServer.sleep(Duration.ofMillis(250));
    }
  }

  /** The tail of every process's log, for failure messages. */
  public String logs() {
    StringBuilder out = new StringBuilder();
    try (var files = Files.list(dir)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
        List<String> lines = Files.readAllLines(log);
        out.append("--- ")
            .append(log.getFileName())
            .append('\n')
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size())))
            .append('\n');
      }
    } catch (IOException e) {
      out.append("(logs unreadable: ").append(e).append(")");
    }
    return out.toString();
  }

  /** Stops the members (Patroni stops PostgreSQL), then etcd, and removes the sockets' directory. */
  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      stop(processes.get(i));
    }
    PostgresServer.run(
        List.of("rm", "-rf", socketDir.toString()), Map.of(), Duration.ofSeconds(30));
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
