/**
 * <b>Internal</b>: credentials and roles: the Secrets, SCRAM verifiers, the cluster's own service roles, the pooler's auth file
 * and port.
 */
package dev.metahooks.controllers.postgres.children.access;
