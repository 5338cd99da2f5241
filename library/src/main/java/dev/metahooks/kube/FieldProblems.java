package dev.metahooks.kube;

import dev.metahooks.api.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where a {@link FieldReader}'s problems go. {@link #collecting()} lists every problem in the order found, for a
 * spec a user wrote that must not fail the call (the status names every field to fix); the readers of a request
 * that is simply malformed throw at the first problem instead (an {@link InvalidRequestException}, a 422).
 */
public final class FieldProblems {
  /** The throwing mode: the first problem ends the read. */
  static final FieldProblems THROWING = new FieldProblems(null);

  private final List<FieldProblem> collected;

  private FieldProblems(List<FieldProblem> collected) {
    this.collected = collected;
  }

  /** An empty list that readers built over it add to instead of throwing. */
  public static FieldProblems collecting() {
    return new FieldProblems(new ArrayList<>());
  }

  /** Adds a problem (throws it in the throwing mode); {@code field} is a whole path, as readers build them. */
  public void add(String field, String message) {
    if (collected == null) {
      throw new InvalidRequestException(field, message);
    }
    collected.add(new FieldProblem(field, message));
  }

  /**
   * What a check that throws returns ({@link StringMaps#copy}, {@link LabelSelectors#copy}); when it throws, the
   * problem is added and the value is empty (in the throwing mode, it is thrown on).
   */
  <T> Optional<T> checked(Supplier<T> check) {
    try {
      return Optional.of(check.get());
    } catch (InvalidRequestException e) {
      if (collected == null) {
        throw e;
      }
      collected.add(new FieldProblem(e.field(), e.getMessage().substring(e.field().length() + 2)));
      return Optional.empty();
    }
  }

  /** The problems so far, in the order found. */
  public List<FieldProblem> list() {
    return collected == null ? List.of() : List.copyOf(collected);
  }

  /** How many problems so far (a rule can tell whether a part it read added any). */
  public int size() {
    return collected == null ? 0 : collected.size();
  }

  public boolean isEmpty() {
    return collected == null || collected.isEmpty();
  }
}
