package dev.metahooks.kube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * A parent's {@code spec} read as a Java record and its {@code status} written from one, with the CRD's OpenAPI
 * schema generated from both records, so that the schema the API server checks and the hook's reading cannot
 * disagree.
 *
 * <pre>{@code
 * record Spec(@Description("Who to greet") String who, Optional<Language> language,
 *             @Range(min = 1, max = 10) Optional<Integer> copies) {}
 * record Status(String message, int configMaps) {}
 * static final TypedParent<Spec, Status> PARENT = TypedParent.of(Spec.class, Status.class);
 *
 * Spec spec = PARENT.spec(request.parent());           // a 422 naming parent.spec.who when it is missing
 * ObjectNode status = PARENT.status(new Status("Hello, Team!", 1));
 * ObjectNode schema = PARENT.openApiV3Schema();        // the CRD version's schema.openAPIV3Schema
 * }</pre>
 *
 * <p>Each component is read through the {@link FieldReader} call for its type, with the same paths and words
 * ({@code parent.spec.who: is required}); in the collecting mode ({@link #spec(ObjectNode, FieldProblems)}) every
 * problem is listed and what was wrong reads as empty: {@code ""}, {@code false}, {@code 0}, {@code null} for an
 * enum, an empty list or map, a record read from an empty object, an empty {@code Optional}.
 *
 * <table>
 * <caption>Component types, their JSON and their schema</caption>
 * <tr><th>component</th><th>JSON</th><th>schema</th></tr>
 * <tr><td>{@code String}</td><td>a non-empty string ({@code Optional<String>}: any string), matching
 * {@link Pattern} if given</td><td>{@code string}, {@code minLength: 1} unless {@code Optional}, {@code pattern} from
 * {@link Pattern}</td></tr>
 * <tr><td>{@code boolean}, {@code Boolean}</td><td>true or false</td><td>{@code boolean}</td></tr>
 * <tr><td>{@code int}, {@code long} (boxed in an {@code Optional})</td><td>a number without a fraction, within
 * {@link Range} or the type's bounds</td><td>{@code integer}, {@code minimum}/{@code maximum} from {@link Range}</td></tr>
 * <tr><td>an enum</td><td>the name of one of its constants</td><td>{@code string} with {@code enum}</td></tr>
 * <tr><td>a record</td><td>an object</td><td>{@code object} with its properties</td></tr>
 * <tr><td>{@code List<String>}, a {@code List} of records</td><td>an array (of non-empty strings)</td><td>{@code array}
 * with {@code items} ({@code minLength: 1} for strings)</td></tr>
 * <tr><td>{@code Map<String, String>}</td><td>an object of strings (labels)</td><td>{@code object} with
 * {@code additionalProperties: {type: string}}</td></tr>
 * <tr><td>{@code ObjectNode}</td><td>any object, as it is</td><td>{@code object},
 * {@code x-kubernetes-preserve-unknown-fields}</td></tr>
 * </table>
 *
 * <p>A component is required unless it is an {@code Optional<...>}; absent and {@code null} read as an empty
 * {@code Optional}. {@link Description} gives a field's schema its {@code description}. The spec's schema holds
 * every check of this table that a schema can say, so that the API server refuses what the hook would: a
 * {@code schedule: ""} is refused when stored, not at every sync; the status's schema requires nothing (no field,
 * no length). A record's compact
 * constructor may check more and throw an {@code InvalidRequestException} naming the field. A record type with a
 * component of another type fails {@link #of} with an {@code IllegalArgumentException} naming it.
 *
 * @param <S> the spec's record
 * @param <T> the status's record
 */
public final class TypedParent<S extends Record, T extends Record> {
  private final Class<S> spec;
  private final Class<T> status;

  private TypedParent(Class<S> spec, Class<T> status) {
    this.spec = spec;
    this.status = status;
  }

  /** The parent whose spec is {@code spec} and whose status is {@code status}; both are checked now. */
  public static <S extends Record, T extends Record> TypedParent<S, T> of(
      Class<S> spec, Class<T> status) {
    RecordType.of(spec);
    RecordType.of(status);
    return new TypedParent<>(spec, status);
  }

  /** {@code parent.spec} as the spec record; the first problem is an {@code InvalidRequestException} (a 422). */
  public S spec(ObjectNode parent) {
    return read(FieldReader.spec(parent), spec);
  }

  /** {@code parent.spec} read in the collecting mode: every problem added to {@code problems}, none thrown. */
  public S spec(ObjectNode parent, FieldProblems problems) {
    return read(FieldReader.spec(parent, problems), spec);
  }

  /** The status to answer, as JSON: components in declaration order, empty {@code Optional}s and nulls left out. */
  public ObjectNode status(T value) {
    return write(value);
  }

  /**
   * The CRD version's {@code schema.openAPIV3Schema}: an object with {@code spec} and {@code status} generated from
   * the records, {@code spec} required when any of its fields is. The status's schema requires no field: only the
   * hook writes it, and a status written by an earlier version of the hook must stay valid.
   */
  public ObjectNode openApiV3Schema() {
    ObjectNode schema = Json.object().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties.set("spec", schema(spec));
    properties.set("status", RecordSchema.of(status, false));
    if (RecordSchema.hasRequired(spec)) {
      schema.putArray("required").add("spec");
    }
    return schema;
  }

  /** Any object read as a record (an observed child's, a nested part of a spec), with {@code reader}'s paths and mode. */
  public static <R extends Record> R read(FieldReader reader, Class<R> type) {
    return RecordReader.read(reader, type);
  }

  /** Any record written as JSON, as {@link #status} writes it. */
  public static ObjectNode write(Record value) {
    return RecordWriter.write(value);
  }

  /** The OpenAPI v3 schema of a record read as {@link #read} reads it (every component not {@code Optional} required). */
  public static ObjectNode schema(Class<? extends Record> type) {
    return RecordSchema.of(type, true);
  }
}
