package dev.metahooks.kube;

/**
 * Text in a container's {@code command}, {@code args} or {@code env} values exactly as the process should receive it.
 * Before a container starts, the kubelet replaces {@code $(NAME)} with the value of a variable defined earlier in
 * the same container and reduces {@code $$} to {@code $} (Kubernetes' {@code third_party/forked/golang/expansion}),
 * so a script or SQL text with {@code $$} (a PostgreSQL dollar quote) or {@code $(command)} would arrive changed.
 * {@link #literal(String)} doubles every {@code $}, so nothing of the text is taken for a reference.
 */
public final class KubeletText {
  private KubeletText() {}

  /** The text as the kubelet must be given it so that the container receives {@code text} unchanged. */
  public static String literal(String text) {
    return text.replace("$", "$$");
  }

  /** A deliberate reference to a variable defined earlier in the same container, which the kubelet replaces. */
  public static String reference(String variable) {
    return "$(" + variable + ")";
  }
}
