package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** A map function with a lifecycle and access to keyed state on a keyed stream. */
@Public
public abstract class RichMapFunction<IN, OUT> extends AbstractRichFunction
    implements MapFunction<IN, OUT> {}
