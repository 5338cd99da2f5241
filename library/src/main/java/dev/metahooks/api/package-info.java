/**
 * <b>Public API</b>: what a controller is made of. {@link dev.metahooks.api.Controller} names the hooks; the request
 * types ({@code CompositeRequest}, {@code DecoratorRequest}, {@code CustomizeRequest}) and their answers are the
 * Metacontroller wire model; {@link dev.metahooks.api.InvalidRequestException} is a 422 naming a field;
 * {@link dev.metahooks.api.Sources} is the one source of time and randomness a hook may use. Methods marked
 * "internal" in their documentation serve the server and are not for controllers.
 */
package dev.metahooks.api;
