package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One change to the emulated cluster, as a watch would report it.
 *
 * @param sequence the cluster's resourceVersion after the write
 * @param actor who wrote: {@code test}, {@code metacontroller/<controller>}, {@code world/<simulation>},
 *     {@code garbage-collector}
 * @param before the object before (null for a create)
 * @param after the object after (null once it is gone)
 */
public record Write(
    long sequence, String actor, Verb verb, String object, ObjectNode before, ObjectNode after) {

  /** What happened to the object. */
  public enum Verb {
    CREATE,
    UPDATE,
    UPDATE_STATUS,
    /** The object got a deletionTimestamp; finalizers keep it. */
    MARK_DELETED,
    /** The object is gone. */
    DELETE
  }

  /** The changed paths, one line each, for failure messages. */
  public List<String> changes() {
    return JsonDiff.changes(before, after);
  }

  @Override
  public String toString() {
    return actor
        + " "
        + verb
        + " "
        + object
        + (verb == Verb.UPDATE || verb == Verb.UPDATE_STATUS || verb == Verb.MARK_DELETED
            ? " " + changes()
            : "");
  }
}
