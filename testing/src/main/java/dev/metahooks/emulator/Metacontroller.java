package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.kube.Yaml;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metacontroller's control loop over a {@link Cluster}, calling real hooks over HTTP. It loads
 * CompositeController and DecoratorController manifests, points their webhooks at the server under test,
 * and runs rounds: the {@link World} takes a step, then every parent of every controller is synced once
 * (children claimed, related objects selected, the hook called, the answer applied as Metacontroller
 * applies it). {@link #runUntilStable} repeats rounds until one changes nothing.
 *
 * <pre>{@code
 * Cluster cluster = new Cluster();
 * Metacontroller mc = Metacontroller.forManifests(cluster, hooks.baseUrl(), "metacontroller/hello-world.yaml");
 * cluster.createFile("manifests/examples/hello-world.yaml");
 * mc.runUntilStable(10);
 * assertThat(cluster.get("v1", "Pod", "default", "your-name")...);
 * }</pre>
 *
 * <p>Under {@link Profile#V4_17_2} a round syncs the parents that an event, a timer or a due retry concerns, as
 * Metacontroller does; under {@link Profile#INTENDED} every parent every round. Either way a round without writes
 * is a fixed point of the hooks (with {@link #informerLag}, two such rounds).
 */
public final class Metacontroller {
  private final Cluster cluster;
  private final URI baseUrl;
  private final List<ControllerLoop> loops = new ArrayList<>();
  private final List<HookCall> calls = new ArrayList<>();
  private final List<SyncError> errors = new ArrayList<>();
  private final List<SyncError> requeues = new ArrayList<>();
  private final List<Event> events = new ArrayList<>();
  private final List<Round> rounds = new ArrayList<>();
  private final Map<String, Double> resyncAfter = new LinkedHashMap<>();
  private final List<IdleUpdate> idleUpdates = new ArrayList<>();

  /** The idle updates of each parent's latest sync, by {@code controller|parent uid}. */
  private final Map<String, ParentIdleUpdates> latestIdleUpdates = new LinkedHashMap<>();

  private record ParentIdleUpdates(ObjectNode parent, List<IdleUpdate> updates) {}

  /**
   * A child Metacontroller updated or recreated because its merge of the hook's answer differed from what is
   * stored: the latest of each child, for the message of a scenario that does not settle.
   */
  private record ChildDifference(
      int round,
      String controller,
      String parent,
      String child,
      List<String> differences,
      List<String> rewritten) {
    @Override
    public String toString() {
      return controller
          + " "
          + parent
          + " -> "
          + child
          + ": "
          + String.join("; ", differences)
          + (rewritten.isEmpty()
              ? ""
              : " (stored otherwise than sent, sent -> stored: "
                  + String.join("; ", rewritten)
                  + ")");
    }
  }

  private final Map<String, ChildDifference> childDifferences = new LinkedHashMap<>();

  /** Controller manifests as written, before their webhooks were pointed at the server under test. */
  private final Map<String, ObjectNode> written = new LinkedHashMap<>();

  /**
   * On a real API server the controllers' and nodes' changes come one by one, not a step at a time, so a scenario
   * gets this many times the rounds it asks for before it counts as a hot loop.
   */
  private static final int ROUNDS_FACTOR_ON_SERVER =
      Integer.getInteger("metahooks.kube.roundsFactor", 3);

  private World world = World.standard();
  private Profile profile = Profile.configured();
  private final Triggers triggers = new Triggers(this);
  private int round;
  private boolean tolerateSyncErrors;
  private boolean informerLag;

  /** What the child and related informers hold this round: the cluster at the start of the round before. */
  private Cluster cache;

  private Cluster nextCache;

  /**
   * @param baseUrl where the hooks are served, e.g. {@code http://localhost:8080}; it replaces the scheme and
   *     host of every webhook URL in the manifests (the path is kept)
   */
  public Metacontroller(Cluster cluster, String baseUrl) {
    this.cluster = cluster;
    this.baseUrl = URI.create(baseUrl);
    cluster.profile(profile);
  }

  /** A Metacontroller with the controllers of the given manifest files (paths relative to the project). */
  public static Metacontroller forManifests(
      Cluster cluster, String baseUrl, String... manifestPaths) {
    Metacontroller mc = new Metacontroller(cluster, baseUrl);
    for (String path : manifestPaths) {
      mc.load(path);
    }
    return mc;
  }

  /** Loads the controllers (and CRDs) of a manifest file. */
  public Metacontroller load(String manifestPath) {
    Yaml.file(manifestPath).forEach(this::add);
    return this;
  }

  /** Loads the controllers (and CRDs) of YAML text. */
  public Metacontroller loadYaml(String yaml) {
    Yaml.objects(yaml).forEach(this::add);
    return this;
  }

  private void add(ObjectNode manifest) {
    String kind = Meta.kind(manifest);
    switch (kind) {
      case "CompositeController", "DecoratorController" -> {
        ObjectNode stored =
            cluster.as("kubectl", () -> cluster.create(pointHooksAtServer(manifest)));
        written.put(kind + "/" + Meta.name(stored), manifest);
        loops.add(
            kind.equals("CompositeController")
                ? new CompositeLoop(this, stored, baseUrl)
                : new DecoratorLoop(this, stored, baseUrl));
      }
      case "CustomResourceDefinition" -> {
        if (cluster
            .find(manifest.path("apiVersion").asText(), kind, Meta.name(manifest))
            .isEmpty()) {
          cluster.as("kubectl", () -> cluster.create(manifest));
        }
      }
      default -> {} // other objects of a manifest file (kustomizations, RBAC) mean nothing here
    }
  }

  private ObjectNode pointHooksAtServer(ObjectNode manifest) {
    ObjectNode copy = Trees.copy(manifest);
    JsonNode hooks = copy.path("spec").path("hooks");
    for (String hook : List.of("sync", "finalize", "customize")) {
      Webhook webhook = Webhook.read(hooks, hook, baseUrl);
      JsonNode spec = hooks.path(hook).path("webhook");
      if (webhook != null && spec.hasNonNull("url")) {
        ((ObjectNode) spec).put("url", webhook.url().toString());
      }
    }
    return copy;
  }

  public Cluster cluster() {
    return cluster;
  }

  public Profile profile() {
    return profile;
  }

  /** Behave like this Metacontroller (and its cluster like that API server) from now on. */
  public Metacontroller profile(Profile newProfile) {
    this.profile = newProfile;
    cluster.profile(newProfile);
    return this;
  }

  public World world() {
    return world;
  }

  public Metacontroller world(World newWorld) {
    this.world = newWorld;
    return this;
  }

  /**
   * Reads of children, attachments and related objects lag the writes by a round, as Metacontroller's informer
   * caches can: a sync sees them as they were when the round before began, and their events reach a parent once
   * they are in that view; parents themselves are read fresh. A hook that counts its children then sees what it
   * can see on a cluster: a child just created missing, one just deleted still there. {@link #runUntilStable}
   * then needs two rounds without writes.
   */
  public Metacontroller informerLag(boolean lag) {
    this.informerLag = lag;
    return this;
  }

  /** Lets {@link #runUntilStable} succeed although syncs keep failing (for tests of failures). */
  public Metacontroller tolerateSyncErrors() {
    this.tolerateSyncErrors = true;
    return this;
  }

  /** Runs one round: a world step, then one sync of every parent. */
  public Round round() {
    if (cluster.isOnServer() && !profile.faithful()) {
      org.junit.jupiter.api.Assumptions.abort(
          "a real API server cannot be made to work as intended (no defaults, "
              + "Pods gone at once): the intended profile runs on the in-memory store only");
    }
    round++;
    if (informerLag) {
      cache = nextCache == null ? cluster.snapshot() : nextCache;
      nextCache = cluster.snapshot();
    }
    long firstWrite = cluster.lastSequence();
    int firstCall = calls.size();
    int firstError = errors.size();
    world.step(cluster);
    for (ControllerLoop loop : loops) {
      loop.syncAll();
    }
    Round result =
        new Round(
            round,
            cluster.writesAfter(firstWrite),
            calls.subList(firstCall, calls.size()),
            errors.subList(firstError, errors.size()));
    rounds.add(result);
    return result;
  }

  /**
   * Runs rounds until one changes nothing and returns how many ran. Fails, showing what the last rounds
   * wrote, if that does not happen within {@code maxRounds} (a hot loop: something changes on every sync);
   * fails too if the last round had sync errors, unless {@link #tolerateSyncErrors()} was called.
   */
  public int runUntilStable(int maxRounds) {
    boolean quietBefore = false;
    int limit = cluster.isOnServer() ? maxRounds * ROUNDS_FACTOR_ON_SERVER : maxRounds;
    for (int i = 1; i <= limit; i++) {
      Round last = round();
      boolean caughtUp = !informerLag || quietBefore;
      quietBefore = !last.changed();
      if (!last.changed()
          && caughtUp
          && cluster.isOnServer()
          && !cluster.staysQuiet(ServerTiming.settledQuiet())) {
        quietBefore = false;
        continue;
      }
      if (!last.changed() && caughtUp) {
        Map<String, java.time.Instant> retries =
            profile.faithful() ? triggers.pendingRetries() : Map.of();
        if ((!last.errors().isEmpty() || !retries.isEmpty()) && !tolerateSyncErrors) {
          throw new AssertionError(
              "settled, but syncs keep failing (Metacontroller would retry forever):\n  "
                  + String.join(
                      "\n  ", latestErrors(last).stream().map(SyncError::toString).toList())
                  + (retries.isEmpty()
                      ? ""
                      : "\nRate-limited retries not yet due on the cluster's clock (now "
                          + cluster.now()
                          + "): "
                          + retries));
        }
        // Only those a hook's null causes fail here: the others come from API-server defaults that
        // a list
        // replaced whole leaves out (a known Metacontroller defect, docs/emulator.md), listed by
        // idleUpdates().
        List<IdleUpdate> idle =
            latestIdleUpdates.values().stream()
                .filter(this::parentExists)
                .flatMap(p -> p.updates().stream())
                .filter(IdleUpdate::causedByTheAnswer)
                .toList();
        if (!idle.isEmpty()) {
          throw new AssertionError(
              "settled, but Metacontroller sends these updates on every sync: the API server "
                  + "stores each child unchanged, so the difference never goes away:\n  "
                  + String.join("\n  ", idle.stream().map(IdleUpdate::toString).toList())
                  + nullsInAnswers(i));
        }
        return i;
      }
    }
    StringBuilder message =
        new StringBuilder(
            "did not settle within "
                + limit
                + " rounds (a hot loop: something changes on every sync?). Writes of the last rounds:");
    for (Round recent : rounds.subList(Math.max(0, rounds.size() - 2), rounds.size())) {
      message.append("\n round ").append(recent.number()).append(':');
      recent.writes().stream().limit(30).forEach(w -> message.append("\n  ").append(w));
      if (recent.writes().size() > 30) {
        message.append("\n  … ").append(recent.writes().size() - 30).append(" more");
      }
      recent.errors().forEach(e -> message.append("\n  sync error: ").append(e.message()));
    }
    throw new AssertionError(message.toString() + unsettledChildren(2) + nullsInAnswers(2));
  }

  /**
   * The children of the last rounds whose merge of the hook's answer still differs from what is stored, each with
   * the JSON paths that differ ({@code stored -> sent}) and what of them the API server stores otherwise than sent.
   */
  private String unsettledChildren(int lastRounds) {
    List<String> lines =
        childDifferences.values().stream()
            .filter(d -> d.round() > round - lastRounds)
            .map(ChildDifference::toString)
            .toList();
    return lines.isEmpty()
        ? ""
        : "\nChildren Metacontroller changed in the last rounds because what the hook sends "
            + "differs from what is stored (path: stored -> sent):\n  "
            + String.join("\n  ", lines);
  }

  /**
   * The explicit nulls in the children and attachments the hooks asked for in the last rounds: the API server
   * stores none of them, so each makes Metacontroller see a difference on every sync ({@link Nulls}).
   */
  private String nullsInAnswers(int lastRounds) {
    List<String> lines = new ArrayList<>();
    for (HookCall call : calls) {
      if (call.round() <= round - lastRounds || !call.ok() || call.hook().equals("customize")) {
        continue;
      }
      for (String field : List.of("children", "attachments")) {
        for (JsonNode object : call.responseJson().path(field)) {
          List<String> paths = Nulls.paths(object);
          String line = call.controller() + " " + Meta.describe(object) + ": " + paths;
          if (!paths.isEmpty() && !lines.contains(line)) {
            lines.add(line);
          }
        }
      }
    }
    return lines.isEmpty()
        ? ""
        : "\nExplicit nulls in what the hooks asked for (the API server stores none of "
            + "them, so Metacontroller finds a difference on every sync):\n  "
            + String.join("\n  ", lines);
  }

  /**
   * Syncs every parent in the next round, events or not, as Metacontroller does after its informers relist
   * ({@code --cache-flush-interval}, 30 min) or a restart. (With {@link Profile#INTENDED} every round does.)
   */
  public Metacontroller resyncAll() {
    triggers.relist();
    return this;
  }

  /** Every hook call so far, oldest first. */
  public List<HookCall> calls() {
    return Collections.unmodifiableList(calls);
  }

  /** The calls of one hook ({@code sync}, {@code finalize}, {@code customize}) of one controller. */
  public List<HookCall> calls(String controller, String hook) {
    return calls.stream()
        .filter(c -> c.controller().equals(controller) && c.hook().equals(hook))
        .toList();
  }

  /** The latest call of one hook of one controller; fails if there was none. */
  public HookCall lastCall(String controller, String hook) {
    List<HookCall> matching = calls(controller, hook);
    if (matching.isEmpty()) {
      throw new AssertionError("no " + hook + " call of " + controller + "; calls: " + calls);
    }
    return matching.get(matching.size() - 1);
  }

  /** Every {@code InPlace} child update the API server stored unchanged ({@link IdleUpdate}), oldest first. */
  public List<IdleUpdate> idleUpdates() {
    return Collections.unmodifiableList(idleUpdates);
  }

  /** The Events Metacontroller recorded, oldest first ({@code SyncError} on the parent of each failed sync). */
  public List<Event> events() {
    return Collections.unmodifiableList(events);
  }

  /** Every failed sync so far. */
  public List<SyncError> syncErrors() {
    return Collections.unmodifiableList(errors);
  }

  /** Syncs a hook's 429 ended: requeued after Retry-After, not errors (no SyncError event upstream). */
  public List<SyncError> requeues() {
    return Collections.unmodifiableList(requeues);
  }

  public List<Round> rounds() {
    return Collections.unmodifiableList(rounds);
  }

  /** The latest {@code resyncAfterSeconds} each parent asked for ({@code Kind namespace/name} → seconds). */
  public Map<String, Double> resyncAfterSeconds() {
    return Collections.unmodifiableMap(resyncAfter);
  }

  // ---- for the controller loops

  /** Where children, attachments and related objects are read: the cluster, or its lagging view. */
  Cluster cache() {
    return informerLag && cache != null ? cache : cluster;
  }

  ObjectNode written(ObjectNode controller) {
    return written.getOrDefault(Meta.kind(controller) + "/" + Meta.name(controller), controller);
  }

  int roundNumber() {
    return round;
  }

  void record(HookCall call) {
    calls.add(call);
  }

  void resync(ControllerLoop loop, ObjectNode parent, double seconds) {
    resyncAfter.put(Meta.describe(parent), seconds);
    triggers.resyncAfter(loop, parent, seconds);
  }

  Triggers triggers() {
    return triggers;
  }

  void childDiffers(
      ControllerLoop loop,
      ObjectNode parent,
      ObjectNode child,
      List<String> differences,
      List<String> rewritten) {
    String key = loop.name + "|" + Meta.uid(parent) + "|" + Meta.describe(child);
    childDifferences.remove(key);
    childDifferences.put(
        key,
        new ChildDifference(
            round, loop.name, Meta.describe(parent), Meta.describe(child), differences, rewritten));
  }

  void idleUpdate(
      ControllerLoop loop,
      ObjectNode parent,
      ObjectNode child,
      List<String> differences,
      List<String> rewritten) {
    IdleUpdate update =
        new IdleUpdate(
            round, loop.name, Meta.describe(parent), Meta.describe(child), differences, rewritten);
    idleUpdates.add(update);
    latestIdleUpdates
        .computeIfAbsent(
            loop.name + "|" + Meta.uid(parent),
            k -> new ParentIdleUpdates(parent, new ArrayList<>()))
        .updates()
        .add(update);
  }

  /** The sync errors of the last round, or else the latest error of each parent that failed before it. */
  private List<SyncError> latestErrors(Round last) {
    if (!last.errors().isEmpty()) {
      return last.errors();
    }
    Map<String, SyncError> latest = new LinkedHashMap<>();
    errors.forEach(e -> latest.put(e.controller() + " " + e.parent(), e));
    return List.copyOf(latest.values());
  }

  /** Records an Event; one like the latest of its object, type, reason and message only counts up. */
  private void event(String type, String reason, String object, String message) {
    for (int i = events.size() - 1; i >= 0; i--) {
      Event seen = events.get(i);
      if (seen.type().equals(type)
          && seen.reason().equals(reason)
          && seen.object().equals(object)
          && seen.message().equals(message)) {
        events.set(
            i,
            new Event(type, reason, object, message, seen.count() + 1, seen.firstRound(), round));
        return;
      }
    }
    events.add(new Event(type, reason, object, message, 1, round, round));
  }

  private boolean parentExists(ParentIdleUpdates entry) {
    ObjectNode parent = entry.parent();
    return cluster
        .find(Meta.apiVersion(parent), Meta.kind(parent), Meta.namespace(parent), Meta.name(parent))
        .filter(live -> Meta.uid(live).equals(Meta.uid(parent)))
        .isPresent();
  }

  /** Syncs one parent with writes attributed to the controller; a failure becomes a {@link SyncError}. */
  void syncOne(ControllerLoop loop, ObjectNode parent, Runnable sync) {
    if (!triggers.due(loop, parent)) {
      return;
    }
    triggers.starting(loop, parent);
    latestIdleUpdates.remove(loop.name + "|" + Meta.uid(parent));
    cluster.as(
        "metacontroller/" + loop.name,
        () -> {
          try {
            sync.run();
            triggers.succeeded(loop, parent);
          } catch (Requeue e) {
            requeues.add(new SyncError(round, loop.name, Meta.describe(parent), e.getMessage()));
            triggers.resyncAfter(loop, parent, e.afterSeconds);
          } catch (SyncFailure | ApiException | IllegalArgumentException e) {
            errors.add(new SyncError(round, loop.name, Meta.describe(parent), e.getMessage()));
            event("Warning", "SyncError", Meta.describe(parent), "Sync error: " + e.getMessage());
            triggers.failed(loop, parent);
          }
        });
  }
}
