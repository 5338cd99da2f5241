package dev.metahooks.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.Projection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A controller as the server sees it: a URL name and the hooks it serves, each a pure function from a typed
 * request to a typed response. The server never knows a controller's domain; a controller never sees HTTP.
 *
 * <pre>{@code
 * Controller.composite("catset").sync(CatSetController::sync).finalize(CatSetController::sync).build();
 * }</pre>
 */
public final class Controller {
  private final String name;
  private final Map<Hook, Function<ObjectNode, HookResponse>> hooks;
  private final Map<String, List<String>> reads;
  private final String version;

  private Controller(
      String name,
      Map<Hook, Function<ObjectNode, HookResponse>> hooks,
      Map<String, List<String>> reads,
      String version) {
    this.name = name;
    this.hooks = Collections.unmodifiableMap(new EnumMap<>(hooks));
    this.reads = reads;
    this.version = version;
  }

  public static CompositeBuilder composite(String name) {
    return new CompositeBuilder(name);
  }

  public static DecoratorBuilder decorator(String name) {
    return new DecoratorBuilder(name);
  }

  public String name() {
    return name;
  }

  public Set<Hook> hooks() {
    return hooks.keySet();
  }

  /** The version its builder declared ({@link Builder#version}), which {@code GET /controllers} reports. */
  public Optional<String> version() {
    return Optional.ofNullable(version);
  }

  /**
   * What the hooks read of the observed objects, as {@link Builder#reads} declared it: for each group key
   * ({@code Pod.v1}) the field paths; the server parses requests without the rest of those objects.
   *
   * @return group key to field paths, in the order declared; empty when the objects come whole
   */
  public Map<String, List<String>> reads() {
    return reads;
  }

  public boolean serves(Hook hook) {
    return hooks.containsKey(hook);
  }

  /**
   * Reads the body as this hook's request type, runs the hook and returns its response record.
   *
   * @throws InvalidRequestException when the body lacks what the hook needs
   * @throws IllegalArgumentException when this controller does not serve the hook
   */
  public HookResponse handle(Hook hook, ObjectNode body) {
    Function<ObjectNode, HookResponse> handler = hooks.get(hook);
    if (handler == null) {
      throw new IllegalArgumentException(name + " has no " + hook.path() + " hook");
    }
    return handler.apply(body);
  }

  private abstract static class Builder<B extends Builder<B>> {
    final String name;
    final Map<Hook, Function<ObjectNode, HookResponse>> hooks = new EnumMap<>(Hook.class);
    final Map<String, List<String>> reads = new LinkedHashMap<>();
    String version;

    Builder(String name) {
      this.name = name;
    }

    abstract B self();

    public B customize(Function<CustomizeRequest, CustomizeResponse> hook) {
      hooks.put(Hook.CUSTOMIZE, body -> hook.apply(CustomizeRequest.read(body)));
      return self();
    }

    /**
     * What the hooks of this controller read of the observed objects of one type (children, attachments,
     * related), as field paths: {@code "status.phase"}, {@code "status.conditions"}, a key with dots in brackets
     * ({@code "metadata.annotations['example.com/hash']"}); a path through an array applies to each element.
     * Every object's {@code apiVersion}, {@code kind}, {@code metadata.name} and {@code metadata.namespace} are
     * read anyway. Requests are parsed without the rest of those objects, so a large request holds only what the
     * hooks read; with no paths, only that identity is kept. Declare nothing for a type whose objects a hook
     * re-emits or reads whole: its objects then come whole. A second call for a type adds to the first.
     */
    public B reads(String apiVersion, String kind, String... paths) {
      String group = ObjectMap.groupKey(apiVersion, kind);
      Projection.NONE.reading(
          group, paths); // a path that names no field fails here, not at the first request
      reads.computeIfAbsent(group, g -> new ArrayList<>()).addAll(List.of(paths));
      return self();
    }

    /**
     * The version of the application this controller ships in (for example its pom's, read from the jar's
     * {@code Implementation-Version}), so that {@code GET /controllers} tells which build of it a server runs.
     */
    public B version(String version) {
      if (version == null || version.isBlank()) {
        throw new IllegalArgumentException(name + ": a version must not be empty");
      }
      this.version = version.strip();
      return self();
    }

    public Controller build() {
      if (hooks.isEmpty()) {
        throw new IllegalStateException(name + " serves no hook");
      }
      Map<String, List<String>> declared = new LinkedHashMap<>();
      reads.forEach((group, paths) -> declared.put(group, List.copyOf(paths)));
      return new Controller(name, hooks, Collections.unmodifiableMap(declared), version);
    }
  }

  /** Hooks of a CompositeController: sync and finalize get a parent and its children. */
  public static final class CompositeBuilder extends Builder<CompositeBuilder> {
    CompositeBuilder(String name) {
      super(name);
    }

    @Override
    CompositeBuilder self() {
      return this;
    }

    public CompositeBuilder sync(Function<CompositeRequest, CompositeResponse> hook) {
      hooks.put(Hook.SYNC, body -> hook.apply(CompositeRequest.read(body, Hook.SYNC)));
      return this;
    }

    public CompositeBuilder finalize(Function<CompositeRequest, CompositeResponse> hook) {
      hooks.put(Hook.FINALIZE, body -> hook.apply(CompositeRequest.read(body, Hook.FINALIZE)));
      return this;
    }
  }

  /** Hooks of a DecoratorController: sync and finalize get a target object and its attachments. */
  public static final class DecoratorBuilder extends Builder<DecoratorBuilder> {
    DecoratorBuilder(String name) {
      super(name);
    }

    @Override
    DecoratorBuilder self() {
      return this;
    }

    public DecoratorBuilder sync(Function<DecoratorRequest, DecoratorResponse> hook) {
      hooks.put(Hook.SYNC, body -> hook.apply(DecoratorRequest.read(body, Hook.SYNC)));
      return this;
    }

    public DecoratorBuilder finalize(Function<DecoratorRequest, DecoratorResponse> hook) {
      hooks.put(Hook.FINALIZE, body -> hook.apply(DecoratorRequest.read(body, Hook.FINALIZE)));
      return this;
    }
  }
}
