# R vectors until killed.
x <- list()
repeat x[[length(x) + 1]] <- runif(2e6)
