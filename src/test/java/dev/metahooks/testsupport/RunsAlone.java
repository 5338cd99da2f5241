package dev.metahooks.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration test that holds a server to deadlines the machine's load decides (answers within Metacontroller's
 * timeout, a heap that must not run out in time): the build runs it after the others, with nothing beside it, as the
 * failsafe executions of {@code service.xml} say.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {
  /** The tag the build selects by. */
  String TAG = "alone";
}
