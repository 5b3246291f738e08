// not MLIR at all
@@@ this is !not <<mlir>> %%% {{{ 
