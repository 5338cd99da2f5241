package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahooks.emulator.ApiException.Reason;
import dev.metahooks.kube.Quantities;
import dev.metahooks.testing.kube.KubeSchema;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What decoding a built-in object into its Go struct and encoding it back does to it, for the kinds the typed
 * model (fabric8's, {@link KubeSchema#modelClass}) knows; explicit {@code null}s are {@link Nulls}' part.
 *
 * <ul>
 *   <li>Fields the struct lacks are dropped: the API server decodes with field validation {@code Warn} when the
 *       client asks for none, as Metacontroller does, which drops them with a warning
 *       ({@code staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go:409-414} {@code fieldValidation},
 *       {@code create.go:119-140}, {@code update.go:107-127}); {@code Strict} would refuse them.</li>
 *   <li>An empty list or map of an optional field is not written back: the Go fields are tagged
 *       {@code omitempty} ({@code staging/src/k8s.io/api/core/v1/types.go} and the other groups'), so
 *       {@code labels: {}}, {@code binaryData: {}} or {@code env: []} vanish. The few list fields without
 *       {@code omitempty} ({@link #REQUIRED}) keep an empty value.</li>
 *   <li>Every quantity is written in canonical form ({@link Quantities}): a number becomes a string,
 *       {@code "0.5"} becomes {@code "500m"}; a value of a resource list ({@code requests}, {@code limits},
 *       {@code hard}, …) is first rounded up to a thousandth ({@code SetDefaults_ResourceList}). A text that is not
 *       a quantity fails the decoding (400 Bad Request).</li>
 * </ul>
 *
 * <p>Not modelled: a non-pointer boolean, number or string field tagged {@code omitempty} is not written back when
 * it is {@code false}, {@code 0} or {@code ""} either (e.g. a volume mount's {@code readOnly: false}); the typed
 * model does not say which fields those are. Kinds the model lacks and CustomResourceDefinitions are stored as
 * sent.
 */
final class GoStructs {
  /**
   * List fields whose Go tag has no {@code omitempty}, as {@code Struct.field} (k8s.io/api v0.36.3: core/v1
   * types.go lines 1014, 1062, 1160, 1201, 2085, 3778, 3851, 4172, 6887, 7714; batch/v1 types.go 199, 254, 266;
   * rbac/v1 types.go 54, 131, 204; networking/v1 types.go 450). An empty one is kept as sent here; a real API server
   * reads it back from storage as {@code null}.
   */
  static final Set<String> REQUIRED =
      Set.of(
          "CephFSVolumeSource.monitors",
          "CephFSPersistentVolumeSource.monitors",
          "RBDVolumeSource.monitors",
          "RBDPersistentVolumeSource.monitors",
          "ProjectedVolumeSource.sources",
          "NodeSelector.nodeSelectorTerms",
          "NodeSelectorRequirement.values",
          "PodSpec.containers",
          "ContainerImage.names",
          "LimitRangeSpec.limits",
          "PodFailurePolicyOnExitCodesRequirement.values",
          "PodFailurePolicy.rules",
          "SuccessPolicy.rules",
          "PolicyRule.verbs",
          "Role.rules",
          "ClusterRole.rules",
          "HTTPIngressRuleValue.paths");

  /** The properties of each model class by JSON name; an empty map for a class decoded as a whole (a leaf). */
  private static final Map<Class<?>, Map<String, JavaType>> PROPERTIES = new ConcurrentHashMap<>();

  private GoStructs() {}

  /** Changes a built-in object into what the API server stores for it (nothing for kinds the model lacks). */
  static void decode(ObjectNode object) {
    if (Meta.kind(object).equals("CustomResourceDefinition")) {
      return;
    }
    KubeSchema.modelClass(object)
        .ifPresent(model -> struct(object, Trees.MAPPER.constructType(model), object));
  }

  private static void struct(ObjectNode node, JavaType type, ObjectNode root) {
    Map<String, JavaType> properties = properties(type.getRawClass());
    for (String field : Trees.fieldNames(node)) {
      JsonNode value = node.get(field);
      JavaType fieldType = properties.get(field);
      if (fieldType == null) {
        node.remove(field);
      } else if (!value.isNull()) {
        boolean required = REQUIRED.contains(type.getRawClass().getSimpleName() + "." + field);
        JsonNode stored = value(value, fieldType, required, root);
        if (stored == null) {
          node.remove(field);
        } else if (stored != value) {
          node.set(field, stored);
        }
      }
    }
  }

  /** The stored form of one value of a field of this type, or null when it is not written back. */
  private static JsonNode value(JsonNode value, JavaType type, boolean required, ObjectNode root) {
    if (type.getRawClass() == Quantity.class) {
      return quantity(value, false, root);
    }
    if (type.isMapLikeType() && value instanceof ObjectNode map) {
      if (map.isEmpty()) {
        return required ? map : null;
      }
      JavaType values = type.getContentType();
      for (String key : Trees.fieldNames(map)) {
        JsonNode item = map.get(key);
        if (values.getRawClass() == Quantity.class && !item.isNull()) {
          map.set(key, quantity(item, true, root));
        } else if (item instanceof ObjectNode itemObject && isStruct(values)) {
          struct(itemObject, values, root);
        }
      }
      return map;
    }
    if (type.isCollectionLikeType() && value instanceof ArrayNode list) {
      if (list.isEmpty()) {
        return required ? list : null;
      }
      JavaType items = type.getContentType();
      for (int i = 0; i < list.size(); i++) {
        if (items.getRawClass() == Quantity.class && !list.get(i).isNull()) {
          list.set(i, quantity(list.get(i), false, root));
        } else if (list.get(i) instanceof ObjectNode item && isStruct(items)) {
          struct(item, items, root);
        }
      }
      return list;
    }
    if (value instanceof ObjectNode object && isStruct(type)) {
      struct(object, type, root);
    }
    return value;
  }

  /**
   * A quantity as Quantity.UnmarshalJSON reads it (the text of a string, trimmed, or the number as the client
   * wrote it) and MarshalJSON writes it back.
   */
  private static JsonNode quantity(JsonNode value, boolean inResourceList, ObjectNode root) {
    String text =
        value.isTextual() ? value.asText().strip() : value.isNumber() ? goNumber(value) : null;
    try {
      if (text == null) {
        throw new IllegalArgumentException("quantities must be strings or numbers, got " + value);
      }
      return TextNode.valueOf(
          inResourceList ? Quantities.canonicalInResourceList(text) : Quantities.canonical(text));
    } catch (IllegalArgumentException e) {
      String kind = Meta.kind(root);
      String version = Meta.apiVersion(root).substring(Meta.apiVersion(root).indexOf('/') + 1);
      throw new ApiException(
          Reason.BAD_REQUEST,
          kind
              + " in version \""
              + version
              + "\" cannot be handled as a "
              + kind
              + ": "
              + e.getMessage());
    }
  }

  /**
   * A JSON number as Metacontroller sends it: integers as written, other numbers as Go's encoding/json writes a
   * float64 (decimal, or with an exponent below 1e-6 and from 1e21 on).
   */
  static String goNumber(JsonNode number) {
    if (number.isIntegralNumber()) {
      return number.bigIntegerValue().toString();
    }
    BigDecimal value = new BigDecimal(Double.toString(number.doubleValue())).stripTrailingZeros();
    BigDecimal magnitude = value.abs();
    if (value.signum() == 0
        || (magnitude.compareTo(new BigDecimal("1e-6")) >= 0
            && magnitude.compareTo(new BigDecimal("1e21")) < 0)) {
      return value.toPlainString();
    }
    String digits = value.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - value.scale();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return (value.signum() < 0 ? "-" : "")
        + mantissa
        + "e"
        + (exponent < 0 ? "-" : "+")
        + Math.abs(exponent);
  }

  /** Whether values of this type are structs to walk (not leaves such as quantities, IntOrString, raw JSON). */
  private static boolean isStruct(JavaType type) {
    return !properties(type.getRawClass()).isEmpty();
  }

  private static Map<String, JavaType> properties(Class<?> model) {
    return PROPERTIES.computeIfAbsent(model, GoStructs::introspect);
  }

  private static Map<String, JavaType> introspect(Class<?> model) {
    if (!model.getName().startsWith("io.fabric8.kubernetes.api.model.")
        || model == IntOrString.class
        || model == Quantity.class
        || model.isInterface()
        || model.isEnum()) {
      return Map.of();
    }
    JsonDeserialize custom = model.getAnnotation(JsonDeserialize.class);
    if (custom != null
        && custom.using() != com.fasterxml.jackson.databind.JsonDeserializer.None.class) {
      return Map.of();
    }
    BeanDescription description =
        Trees.MAPPER.getDeserializationConfig().introspect(Trees.MAPPER.constructType(model));
    Map<String, JavaType> properties = new TreeMap<>();
    for (BeanPropertyDefinition property : description.findProperties()) {
      if (property.hasSetter() || property.hasField()) {
        properties.put(property.getName(), property.getPrimaryType());
      }
    }
    return Collections.unmodifiableMap(properties);
  }
}
