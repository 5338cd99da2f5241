package dev.metahooks.controllers.postgres;

/** One thing wrong with a spec: the field, as a path such as {@code spec.users[1].name}, and why. */
public record SpecProblem(String field, String message) {
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
