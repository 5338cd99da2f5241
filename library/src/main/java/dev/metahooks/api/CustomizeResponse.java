package dev.metahooks.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The answer to a customize call: which other objects Metacontroller should send with each sync. */
public record CustomizeResponse(List<RelatedResourceRule> relatedResources)
    implements HookResponse {

  public CustomizeResponse {
    relatedResources = relatedResources == null ? List.of() : List.copyOf(relatedResources);
  }

  @Override
  public int objectCount() {
    return relatedResources.size();
  }

  public static CustomizeResponse of(RelatedResourceRule... rules) {
    return new CustomizeResponse(List.of(rules));
  }

  /**
   * One rule (docs/metacontroller.md, section 7.2). Unset fields are left out: an absent {@code labelSelector} and an
   * empty one ({@code {}}, everything) mean different things.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RelatedResourceRule(
      String apiVersion,
      String resource,
      ObjectNode labelSelector,
      ObjectNode namespaceSelector,
      String namespace,
      List<String> names) {

    public static RelatedResourceRule of(String apiVersion, String resource) {
      return new RelatedResourceRule(apiVersion, resource, null, null, null, null);
    }

    public RelatedResourceRule withLabelSelector(ObjectNode selector) {
      return new RelatedResourceRule(
          apiVersion, resource, selector, namespaceSelector, namespace, names);
    }

    public RelatedResourceRule withNamespaceSelector(ObjectNode selector) {
      return new RelatedResourceRule(
          apiVersion, resource, labelSelector, selector, namespace, names);
    }

    public RelatedResourceRule inNamespace(String ns) {
      return new RelatedResourceRule(
          apiVersion, resource, labelSelector, namespaceSelector, ns, names);
    }

    public RelatedResourceRule withNames(List<String> objectNames) {
      return new RelatedResourceRule(
          apiVersion,
          resource,
          labelSelector,
          namespaceSelector,
          namespace,
          objectNames == null ? null : List.copyOf(objectNames));
    }
  }
}
