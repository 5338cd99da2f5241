package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import java.util.Map;
import java.util.Set;

/**
 * Refuses a request that names an object the way the API server never would, before any hook sees it: a hook
 * would echo such a name into the children it asks for (a Pod {@code <parent>-0}), which the API server refuses
 * on every sync. Checked for the parent (or a decorator's object) and every object of {@code children},
 * {@code related} and {@code attachments}: {@code metadata.name} by the rule of its kind, {@code metadata.namespace}
 * as a DNS-1123 label. The rules are the API server's (kubernetes/kubernetes, staging/src/k8s.io/apimachinery):
 * <ul>
 *   <li>every name is a path segment: not {@code .} or {@code ..}, no {@code /} or {@code %}
 *       ({@code pkg/api/validation/path/name.go}, {@code IsValidPathSegmentName});
 *   <li>custom resources ({@code apiextensions-apiserver/pkg/registry/customresource/validator.go},
 *       {@code NameIsDNSSubdomain}) and most built-in kinds are DNS-1123 subdomains
 *       ({@code pkg/util/validation/validation.go}, {@code IsDNS1123Subdomain}): at most 253 of
 *       {@code [a-z0-9.-]}, a letter or digit at each end;
 *   <li>a Service is a DNS-1035 label ({@code pkg/apis/core/validation/validation.go}, {@code ValidateServiceName}),
 *       a Namespace a DNS-1123 label ({@code ValidateNamespaceName});
 *   <li>the RBAC kinds are only path segments ({@code pkg/apis/rbac/validation/validation.go},
 *       {@code ValidateRBACName}): {@code system:controller:x} is a legal ClusterRole.
 * </ul>
 * Whatever the kind, a name or namespace with a control character (NUL among them) or half of a surrogate pair is
 * refused: the API server serves only valid UTF-8, so Metacontroller never sends one.
 */
final class ObjectNames {
  private static final Set<String> PATH_SEGMENT_KINDS =
      Set.of("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding");
  private static final Set<String> OBJECT_MAPS = Set.of("children", "related", "attachments");

  private ObjectNames() {}

  /**
   * @throws InvalidRequestException naming the first field whose name the API server would refuse
   */
  static void check(ObjectNode request) {
    for (String top : new String[] {"parent", "object"}) {
      if (request.get(top) instanceof ObjectNode object) {
        checkObject(object, object.path("kind").asText(""), top);
      }
    }
    for (Map.Entry<String, JsonNode> map : request.properties()) {
      if (!OBJECT_MAPS.contains(map.getKey()) || !map.getValue().isObject()) {
        continue;
      }
      for (Map.Entry<String, JsonNode> group : map.getValue().properties()) {
        String groupKind =
            group.getKey().split("\\.", 2)[0]; // Pod.v1, ClusterRole.rbac.authorization.k8s.io/v1
        String groupPath = map.getKey() + "['" + printable(group.getKey()) + "']";
        if (!group.getValue().isObject()) {
          continue;
        }
        for (Map.Entry<String, JsonNode> entry : group.getValue().properties()) {
          if (entry.getValue() instanceof ObjectNode object) {
            checkObject(
                object,
                object.path("kind").asText(groupKind),
                groupPath + "['" + printable(entry.getKey()) + "']");
          }
        }
      }
    }
  }

  private static void checkObject(ObjectNode object, String kind, String path) {
    JsonNode metadata = object.path("metadata");
    String name = metadata.path("name").textValue();
    if (name != null) {
      String why = whyNot(name, kind);
      if (why != null) {
        throw new InvalidRequestException(
            path + ".metadata.name",
            "'"
                + printable(name)
                + "' is not a name the "
                + "API server accepts for a "
                + (kind.isEmpty() ? "resource" : kind)
                + ": "
                + why);
      }
    }
    String namespace = metadata.path("namespace").textValue();
    if (namespace != null && !namespace.isEmpty()) {
      String why = encoding(namespace);
      if (why == null && !isLabel(namespace, false)) {
        why =
            "a namespace is a DNS-1123 label: at most 63 of a-z, 0-9 and '-', a letter or digit at each end";
      }
      if (why != null) {
        throw new InvalidRequestException(
            path + ".metadata.namespace",
            "'" + printable(namespace) + "' is not a namespace: " + why);
      }
    }
  }

  /** Why {@code name} is not one of {@code kind}; null when it is. */
  static String whyNot(String name, String kind) {
    String why = encoding(name);
    if (why != null) {
      return why;
    }
    if (name.equals(".") || name.equals("..") || name.contains("/") || name.contains("%")) {
      return "a name may not be '.' or '..' nor contain '/' or '%'";
    }
    if (PATH_SEGMENT_KINDS.contains(kind)) {
      return null;
    }
    if (kind.equals("Service")) {
      return isLabel(name, true)
          ? null
          : "a Service's name is a DNS-1035 label: at most 63 of a-z, 0-9 "
              + "and '-', starting with a letter and ending with a letter or digit";
    }
    if (kind.equals("Namespace")) {
      return isLabel(name, false)
          ? null
          : "a Namespace's name is a DNS-1123 label: at most 63 of a-z, 0-9 and '-',"
              + " a letter or digit at each end";
    }
    return isSubdomain(name)
        ? null
        : "a DNS-1123 subdomain: at most 253 "
            + "of a-z, 0-9, '-' and '.', a letter or digit at each end of each part";
  }

  /**
   * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} at most 63 long (a DNS-1123 label), or with {@code letterFirst}
   * {@code [a-z]([-a-z0-9]*[a-z0-9])?} (a DNS-1035 label); checked a character at a time, as every child of a large
   * answer is: a regular expression took a sixteenth of such a call.
   */
  static boolean isLabel(String value, boolean letterFirst) {
    return value.length() <= 63 && isPart(value, 0, value.length(), letterFirst);
  }

  /** Parts that are each {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, joined by dots, at most 253 long in all. */
  static boolean isSubdomain(String value) {
    if (value.length() > 253) {
      return false;
    }
    int start = 0;
    for (int i = 0; i <= value.length(); i++) {
      if (i == value.length() || value.charAt(i) == '.') {
        if (!isPart(value, start, i, false)) {
          return false;
        }
        start = i + 1;
      }
    }
    return true;
  }

  /** {@code value[from, to)}: not empty, a-z, 0-9 and '-', a letter or digit at each end (a letter first). */
  private static boolean isPart(String value, int from, int to, boolean letterFirst) {
    if (to <= from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      boolean letter = c >= 'a' && c <= 'z';
      if (!(letter || (c >= '0' && c <= '9') || (c == '-' && i > from && i < to - 1))
          || (i == from && letterFirst && !letter)) {
        return false;
      }
    }
    return true;
  }

  /** A control character or a lone surrogate: what no valid UTF-8 from the API server decodes to. */
  private static String encoding(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        return "it contains the control character U+" + String.format("%04X", (int) c);
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "it contains half of a UTF-16 surrogate pair (U+"
            + String.format("%04X", (int) c)
            + "), which is "
            + "no character";
      }
    }
    return null;
  }

  /** The value with what cannot be shown or encoded as escapes, so that the error itself can be written. */
  static String printable(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < value.length()
              && Character.isLowSurrogate(value.charAt(i + 1));
      if (pair) {
        out.append(c).append(value.charAt(++i));
      } else if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
