package dev.metahooks.kube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link TypedParent} knows of a record: its components in order, each with the JSON type it stands for, and
 * its canonical constructor. Built once per record class; a component of a type that has no JSON reading here
 * fails at once, naming it, so that a controller with one never starts.
 */
final class RecordType {
  private static final ClassValue<RecordType> TYPES =
      new ClassValue<>() {
        @Override
        protected RecordType computeValue(Class<?> type) {
          return new RecordType(type);
        }
      };

  /** The JSON types a component may stand for. */
  enum Kind {
    STRING,
    BOOLEAN,
    INTEGER,
    ENUM,
    LIST,
    STRING_MAP,
    RECORD,
    OBJECT
  }

  /** A component's type: its kind, its class, and the element of a list. */
  record FieldType(Kind kind, Class<?> type, FieldType element) {
    /** The bounds of an integer read without a {@link Range}. */
    long min() {
      return type == int.class || type == Integer.class ? Integer.MIN_VALUE : Long.MIN_VALUE;
    }

    long max() {
      return type == int.class || type == Integer.class ? Integer.MAX_VALUE : Long.MAX_VALUE;
    }
  }

  /** One component: its JSON name, whether it is {@code Optional<...>}, its type, its accessor and annotations. */
  record Field(
      String name,
      boolean optional,
      FieldType type,
      Method accessor,
      Optional<String> description,
      Optional<Range> range,
      Optional<java.util.regex.Pattern> pattern) {}

  private final Class<?> type;
  private final List<Field> fields;
  private final Constructor<?> constructor;

  private RecordType(Class<?> type) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a record");
    }
    this.type = type;
    List<Field> found = new ArrayList<>();
    List<Class<?>> parameters = new ArrayList<>();
    for (RecordComponent component : type.getRecordComponents()) {
      found.add(field(component));
      parameters.add(component.getType());
    }
    this.fields = List.copyOf(found);
    try {
      this.constructor = type.getDeclaredConstructor(parameters.toArray(Class<?>[]::new));
      constructor.setAccessible(true); // records nested in a controller class need not be public
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          "a record without its canonical constructor: " + type.getName(), e);
    }
  }

  static RecordType of(Class<?> type) {
    return TYPES.get(type);
  }

  List<Field> fields() {
    return fields;
  }

  /** A new record of the values read, in component order; an {@code InvalidRequestException} of the record's own passes. */
  Object create(Object[] values) {
    try {
      return constructor.newInstance(values);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("constructing " + type.getName(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("constructing " + type.getName(), e);
    }
  }

  /** A component's value in {@code record}. */
  static Object value(Field field, Object record) {
    try {
      return field.accessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "reading " + field.name() + " of " + record.getClass().getName(), e);
    }
  }

  private Field field(RecordComponent component) {
    String where = type.getName() + "." + component.getName();
    Type generic = component.getGenericType();
    boolean optional = component.getType() == Optional.class;
    if (optional) {
      generic = typeArgument(generic, 0, where);
    }
    FieldType fieldType = fieldType(generic, where);
    Method accessor = component.getAccessor();
    accessor.setAccessible(true);
    Optional<String> description =
        Optional.ofNullable(component.getAnnotation(Description.class)).map(Description::value);
    Optional<Range> range = Optional.ofNullable(component.getAnnotation(Range.class));
    if (range.isPresent() && fieldType.kind() != Kind.INTEGER) {
      throw new IllegalArgumentException(where + ": @Range is for integers");
    }
    Optional<java.util.regex.Pattern> pattern =
        Optional.ofNullable(component.getAnnotation(Pattern.class))
            .map(annotation -> java.util.regex.Pattern.compile(annotation.value()));
    if (pattern.isPresent() && fieldType.kind() != Kind.STRING) {
      throw new IllegalArgumentException(where + ": @Pattern is for strings");
    }
    return new Field(
        component.getName(), optional, fieldType, accessor, description, range, pattern);
  }

  private static FieldType fieldType(Type generic, String where) {
    if (generic instanceof Class<?> plain) {
      if (plain == String.class) {
        return new FieldType(Kind.STRING, plain, null);
      }
      if (plain == boolean.class || plain == Boolean.class) {
        return new FieldType(Kind.BOOLEAN, plain, null);
      }
      if (plain == int.class
          || plain == Integer.class
          || plain == long.class
          || plain == Long.class) {
        return new FieldType(Kind.INTEGER, plain, null);
      }
      if (plain.isEnum()) {
        return new FieldType(Kind.ENUM, plain, null);
      }
      if (plain.isRecord()) {
        of(plain); // its own components are checked now too
        return new FieldType(Kind.RECORD, plain, null);
      }
      if (plain == ObjectNode.class) {
        return new FieldType(Kind.OBJECT, plain, null);
      }
    }
    if (generic instanceof ParameterizedType parameterized
        && parameterized.getRawType() == List.class) {
      FieldType element = fieldType(typeArgument(generic, 0, where), where);
      if (element.kind() != Kind.STRING && element.kind() != Kind.RECORD) {
        throw new IllegalArgumentException(
            where + ": a list of strings or of records, not of " + element.type());
      }
      return new FieldType(Kind.LIST, List.class, element);
    }
    if (generic instanceof ParameterizedType parameterized
        && parameterized.getRawType() == Map.class
        && typeArgument(generic, 0, where) == String.class
        && typeArgument(generic, 1, where) == String.class) {
      return new FieldType(Kind.STRING_MAP, Map.class, null);
    }
    throw new IllegalArgumentException(
        where
            + ": no JSON reading for "
            + generic.getTypeName()
            + " (String, boolean, int, long, an enum, a record, List<String>, a List of records, Map<String, String>"
            + " or ObjectNode, each also as Optional<...>)");
  }

  private static Type typeArgument(Type generic, int index, String where) {
    if (!(generic instanceof ParameterizedType parameterized)) {
      throw new IllegalArgumentException(
          where + ": " + generic.getTypeName() + " without its type argument");
    }
    return parameterized.getActualTypeArguments()[index];
  }
}
