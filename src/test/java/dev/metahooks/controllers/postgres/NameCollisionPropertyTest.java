package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import org.junit.jupiter.api.Test;

/**
 * Whatever the clusters of a namespace and their on-demand backups are called, no two of them derive a name of the
 * same kind ({@link DerivedNames}: every child of every state, the pods and claims of the StatefulSet, the Jobs of
 * the CronJobs, Patroni's ConfigMaps). The names are drawn from the words the hook's names are made of, so that one
 * cluster's name is often another's with a purpose after it ({@code orders}, {@code orders-backup}), and each
 * cluster of a try is a common stem with words after it.
 */
class NameCollisionPropertyTest {
  private static final String NAMESPACE = "shop";
  private static final int TRIES = 100;

  /** The words the hook's purposes are made of, often; a few others less often. */
  private static final List<String> PURPOSES =
      List.of(
          "backup",
          "final",
          "cleanup",
          "logical",
          "restore",
          "upgrade",
          "store",
          "check",
          "health",
          "pooler",
          "users",
          "resize",
          "restart",
          "switchover",
          "parameters",
          "patroni",
          "superuser",
          "replication",
          "exporter",
          "config",
          "leader",
          "hl",
          "rw",
          "ro",
          "17");

  private static final List<String> OTHERS =
      List.of("orders", "app", "x", "0", "1", "16", "sync", "metrics");

  /** A cluster's names in every state but running: they depend on its name only. */
  private static final Map<String, DerivedNames> STATES = new ConcurrentHashMap<>();

  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  private static final AtomicInteger ENTRIES = new AtomicInteger();
  private static final AtomicInteger COMPARED = new AtomicInteger();

  /** One cluster of a try: its name and its on-demand entries. */
  record Cluster(String name, List<String> onDemand) {}

  @Property(tries = TRIES)
  void noTwoClustersOfANamespaceDeriveOneName(@ForAll("namespaces") List<Cluster> clusters) {
    Map<String, String> owners = new TreeMap<>();
    List<String> collisions = new ArrayList<>();
    for (Derived derived : derive(clusters)) {
      Cluster cluster = derived.cluster();
      assertThat(derived.running().onDemandJobs)
          .as("every entry of %s ran: %s", cluster, derived.running().onDemandJobs)
          .hasSize(cluster.onDemand().size());
      List<String> names = new ArrayList<>(derived.running().names);
      names.addAll(derived.states().names);
      for (String name : names) {
        String owner = owners.putIfAbsent(name, cluster.name());
        if (owner != null && !owner.equals(cluster.name())) {
          collisions.add(name + " of " + owner + " and of " + cluster.name());
        }
      }
      CLUSTERS.incrementAndGet();
      ENTRIES.addAndGet(cluster.onDemand().size());
    }
    COMPARED.addAndGet(owners.size());
    assertThat(collisions).as("names two clusters of %s derive", clusters).isEmpty();
  }

  /** One cluster of a try with the names it derives running and in every other state. */
  private record Derived(Cluster cluster, DerivedNames running, DerivedNames states) {}

  /**
   * The names of each cluster of a try. Each cluster is played in worlds of its own, so the clusters are played
   * side by side (the hook answers concurrent calls in the service too); the comparison then runs in order.
   */
  private static List<Derived> derive(List<Cluster> clusters) {
    return clusters.parallelStream()
        .map(
            cluster ->
                new Derived(
                    cluster,
                    DerivedNames.ofRunning(cluster.name(), NAMESPACE, cluster.onDemand()),
                    STATES.computeIfAbsent(
                        cluster.name(), name -> DerivedNames.ofStates(name, NAMESPACE))))
        .toList();
  }

  /** The case the property was written for: it is reached, and it no longer collides. */
  @Test
  void anOnDemandBackupNamedFinalBackupIsNotAnotherClustersFinalBackup() {
    List<String> orders =
        DerivedNames.ofRunning("orders", NAMESPACE, List.of("final-backup", "cleanup"))
            .ofKind("Job");
    List<String> ordersBackup = DerivedNames.ofStates("orders-backup", NAMESPACE).ofKind("Job");
    assertThat(ordersBackup)
        .contains(Names.finalBackupJob("orders-backup"), Names.cleanup("orders-backup"));
    assertThat(orders)
        .contains("orders.backup-final-backup", "orders.backup-cleanup")
        .doesNotContainAnyElementsOf(ordersBackup);
  }

  /** Each state renders the Jobs it is there for, so that the property compares them all. */
  @Test
  void everyStateRendersItsJobs() {
    List<String> jobs = DerivedNames.ofStates("orders", NAMESPACE).ofKind("Job");
    assertThat(jobs)
        .contains(
            Names.logicalRestoreJob("orders"),
            Names.finalBackupJob("orders"),
            Names.cleanup("orders"),
            Names.upgradeBackupJob("orders", 17),
            Names.upgradeJob("orders", 17));
    for (String purpose : List.of("restart", "switchover", "parameters", "resize")) {
      assertThat(jobs)
          .as(purpose)
          .anyMatch(job -> job.matches("orders-" + purpose + "-[0-9a-f]{10}"));
    }
    DerivedNames running = DerivedNames.ofRunning("orders", NAMESPACE, List.of("nightly"));
    assertThat(running.ofKind("Job"))
        .contains(
            "orders.backup-nightly",
            Names.logicalCronJob("orders") + "-" + DerivedNames.CRON_MINUTES)
        .anyMatch(job -> job.matches("orders-users-[0-9a-f]{10}"));
    assertThat(running.ofKind("NetworkPolicy")).isNotEmpty();
    assertThat(running.ofKind("PersistentVolumeClaim"))
        .contains("pgdata-orders-0", "pgdata-orders-2");
  }

  @AfterContainer
  static void report() {
    System.out.printf(
        "NameCollisionPropertyTest: %d clusters with %d on-demand backups, %d names compared%n",
        CLUSTERS.get(), ENTRIES.get(), COMPARED.get());
  }

  @Provide
  Arbitrary<List<Cluster>> namespaces() {
    Arbitrary<String> stem = name(1, 2, SpecReader.MAX_NAME_LENGTH);
    Arbitrary<List<List<String>>> tails = words(0, 2).list().ofMinSize(2).ofMaxSize(4);
    return Combinators.combine(stem, tails, onDemand().list().ofSize(4))
        .as(NameCollisionPropertyTest::clusters);
  }

  private static List<Cluster> clusters(
      String stem, List<List<String>> tails, List<List<String>> onDemand) {
    Map<String, Cluster> clusters = new LinkedHashMap<>();
    for (int i = 0; i < tails.size(); i++) {
      String name = tails.get(i).isEmpty() ? stem : stem + "-" + String.join("-", tails.get(i));
      if (name.length() <= SpecReader.MAX_NAME_LENGTH) {
        clusters.putIfAbsent(name, new Cluster(name, onDemand.get(i)));
      }
    }
    return List.copyOf(clusters.values());
  }

  private static Arbitrary<List<String>> onDemand() {
    return name(1, 3, BackupSpecReader.MAX_ON_DEMAND_NAME).list().ofMaxSize(3).uniqueElements();
  }

  /** A name of words that starts with a letter and fits. */
  private static Arbitrary<String> name(int minWords, int maxWords, int maxLength) {
    Arbitrary<String> first = word().filter(word -> Character.isLetter(word.charAt(0)));
    return Combinators.combine(first, words(minWords - 1, maxWords - 1))
        .as((word, rest) -> rest.isEmpty() ? word : word + "-" + String.join("-", rest))
        .filter(name -> name.length() <= maxLength);
  }

  private static Arbitrary<List<String>> words(int min, int max) {
    return word().list().ofMinSize(min).ofMaxSize(max);
  }

  /** {@code backup} most often: the on-demand Jobs' word. */
  private static Arbitrary<String> word() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just("backup")),
        Tuple.of(5, Arbitraries.of(PURPOSES)),
        Tuple.of(2, Arbitraries.of(OTHERS)));
  }
}
