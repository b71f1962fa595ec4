/**
 * How stable each type of the API is: {@link io.weir.api.annotation.Public} types keep their shape
 * until the next major release, {@link io.weir.api.annotation.PublicEvolving} types may change in a
 * minor one, {@link io.weir.api.annotation.Internal} types are for Weir's own modules only. Every
 * public type of {@code weir-api} carries exactly one of them.
 */
package io.weir.api.annotation;
