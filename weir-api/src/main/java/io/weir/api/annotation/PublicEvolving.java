package io.weir.api.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type users may build jobs with whose shape may still change in a minor release, as it is newer
 * or its use is not settled yet. Its guarantees (exactly-once, restore) are those of {@link Public}
 * types; only the signatures may move.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PublicEvolving {}
