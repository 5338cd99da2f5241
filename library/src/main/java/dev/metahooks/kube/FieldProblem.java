package dev.metahooks.kube;

/** One thing wrong with a field: where, as a path such as {@code spec.users[1].name}, and why. */
public record FieldProblem(String field, String message) {
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
