package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The ServiceAccount's token in one container of a pod, not in all: the pod turns the automatic mount off
 * ({@code automountServiceAccountToken: false}) and mounts the same projected volume the ServiceAccount admission
 * plugin would have put into every container (TokenVolumeSource, plugin/pkg/admission/serviceaccount/admission.go:485-524
 * at Kubernetes v1.36.3: the token for 3607 s, the cluster's CA from {@code kube-root-ca.crt}, the namespace) where
 * clients look for it (DefaultAPITokenMountPath, admission.go:57) into that container alone. A Job whose other
 * containers run other images (the AWS CLI with the store's keys, say) so never hands them its right to the API.
 */
public final class ApiToken {
  public static final String VOLUME = "api-token";
  public static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  /** What the admission plugin asks for (serviceaccount.WarnOnlyBoundTokenExpirationSeconds); the kubelet renews it. */
  public static final int EXPIRATION_SECONDS = 3607;

  private ApiToken() {}

  /** Turns the automatic mount of {@code pod} off and mounts the token into {@code container} only. */
  public static void onlyInto(ObjectNode pod, ObjectNode container) {
    pod.put("automountServiceAccountToken", false);
    ObjectNode projected =
        pod.withArray("volumes").addObject().put("name", VOLUME).putObject("projected");
    ArrayNode sources = projected.putArray("sources");
    sources
        .addObject()
        .putObject("serviceAccountToken")
        .put("path", "token")
        .put("expirationSeconds", EXPIRATION_SECONDS);
    ObjectNode ca = sources.addObject().putObject("configMap").put("name", "kube-root-ca.crt");
    ca.putArray("items").addObject().put("key", "ca.crt").put("path", "ca.crt");
    sources
        .addObject()
        .putObject("downwardAPI")
        .putArray("items")
        .addObject()
        .put("path", "namespace")
        .putObject("fieldRef")
        .put("apiVersion", "v1")
        .put("fieldPath", "metadata.namespace");
    container
        .withArray("volumeMounts")
        .addObject()
        .put("name", VOLUME)
        .put("mountPath", MOUNT_PATH)
        .put("readOnly", true);
  }
}
