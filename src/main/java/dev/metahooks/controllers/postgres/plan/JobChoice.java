package dev.metahooks.controllers.postgres.plan;

/** What an answer carries of a Job that runs once: rendered from the plan, or kept as it was observed. */
public sealed interface JobChoice {
  String name();

  /** Rendered from the spec and the plan: the Job is not observed yet. */
  record Render(String name) implements JobChoice {}

  /** Kept as last applied: it exists, and a Job is never changed once it runs. */
  record KeepObserved(String name) implements JobChoice {}

  /** {@code Render} unless a Job of that name is observed. */
  static JobChoice of(String name, boolean observed) {
    return observed ? new KeepObserved(name) : new Render(name);
  }
}
