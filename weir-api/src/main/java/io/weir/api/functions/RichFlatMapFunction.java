package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** A flat-map function with a lifecycle and access to keyed state on a keyed stream. */
@Public
public abstract class RichFlatMapFunction<IN, OUT> extends AbstractRichFunction
    implements FlatMapFunction<IN, OUT> {}
