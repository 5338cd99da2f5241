/**
 * <b>Internal</b>: the PostgresCluster spec as records with the CRD's defaults, and the readers that collect what is
 * wrong with it.
 */
package dev.metahooks.controllers.postgres.spec;
