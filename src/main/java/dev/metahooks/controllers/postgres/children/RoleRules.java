package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The rules of a Role, one resource each. A rule {@linkplain #named limited to names} is left out when there are no
 * names: a rule without {@code resourceNames} allows every name, so an empty list must never reach the Role.
 */
public final class RoleRules {
  private final ArrayNode rules;

  private RoleRules(ArrayNode rules) {
    this.rules = rules;
  }

  /** The rules of {@code role}, from none. */
  public static RoleRules of(ObjectNode role) {
    return new RoleRules(role.putArray("rules"));
  }

  /**
   * {@code verbs} on every object of {@code resource} of API group {@code group} ({@code ""}: the core group): only
   * for the verbs RBAC cannot limit by name ({@code list} and {@code watch} by a label selector, {@code create}, whose
   * name the authorizer does not know yet).
   */
  public RoleRules anyName(String group, String resource, String... verbs) {
    add(group, resource, List.of(), verbs);
    return this;
  }

  /** {@code verbs} on the objects of {@code resource} called {@code names}, and no rule at all without names. */
  public RoleRules named(String group, String resource, List<String> names, String... verbs) {
    if (!names.isEmpty()) {
      add(group, resource, names, verbs);
    }
    return this;
  }

  private void add(String group, String resource, List<String> names, String... verbs) {
    ObjectNode rule = rules.addObject();
    rule.putArray("apiGroups").add(group);
    rule.putArray("resources").add(resource);
    if (!names.isEmpty()) {
      ArrayNode resourceNames = rule.putArray("resourceNames");
      names.forEach(resourceNames::add);
    }
    ArrayNode verbList = rule.putArray("verbs");
    for (String verb : verbs) {
      verbList.add(verb);
    }
  }
}
