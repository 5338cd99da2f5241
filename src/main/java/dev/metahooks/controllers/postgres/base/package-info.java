/**
 * <b>Internal</b>: what every layer of PostgresCluster shares: Spilo's constants, the children's names and labels, the
 * scripts and SQL files.
 */
package dev.metahooks.controllers.postgres.base;
