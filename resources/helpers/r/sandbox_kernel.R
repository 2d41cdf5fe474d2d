# SPDX-License-Identifier: GPL-3.0-or-later
# R kernel of Sandbox Studio: cells evaluated in one global environment.
#
# Same events as resources/helpers/python/sandbox_kernel.py, but in band: R cannot
# redirect its own file descriptors, so each event is one line on stdout that starts with
# the byte 0x1E (record separator) followed by JSON; every other byte on stdout is the
# cell's output, and stderr carries messages and warnings. Requests are JSON lines on
# stdin. The engine interrupts a cell with SIGINT (R raises an "interrupt" condition).
# Values are shown as R prints them; plots drawn during a cell come back as PNG images.

suppressPackageStartupMessages(library(jsonlite))

.sbx <- new.env()
.sbx$count <- 0L
.sbx$current <- NULL
.sbx$stdin <- file("stdin", open = "r")

.sbx$send <- function(message) {
    flush(stdout())
    cat("\x1e", as.character(toJSON(message, auto_unbox = TRUE, null = "null", digits = NA)),
        "\n", sep = "")
    flush(stdout())
}

.sbx$plot_files <- function() {
    Sys.glob(file.path("/sandbox/.sandbox", sprintf("cell-%d-*.png", .sbx$count)))
}

.sbx$close_devices <- function() {
    while (!is.null(dev.list())) dev.off()
}

.sbx$execute <- function(code) {
    .sbx$count <- .sbx$count + 1L
    count <- .sbx$count
    status <- "ok"
    exprs <- tryCatch(parse(text = code, keep.source = FALSE), error = function(e) e)
    if (inherits(exprs, "error")) {
        .sbx$send(list(type = "error", id = .sbx$current, ename = "SyntaxError",
                       evalue = conditionMessage(exprs), traceback = list()))
        return(list(status = "error", count = count))
    }
    png(file.path("/sandbox/.sandbox", sprintf("cell-%d-%%03d.png", count)),
        width = 640, height = 480)
    n <- length(exprs)
    result <- tryCatch(
        withCallingHandlers({
            for (i in seq_len(n)) {
                res <- withVisible(eval(exprs[[i]], envir = globalenv()))
                if (res$visible) {
                    if (i == n && !inherits(res$value, c("ggplot", "trellis"))) {
                        text <- paste(capture.output(print(res$value)), collapse = "\n")
                        assign(".Last.value", res$value, envir = globalenv())
                        .sbx$send(list(type = "execute_result", id = .sbx$current,
                                       execution_count = count,
                                       data = list(`text/plain` = text)))
                    } else {
                        print(res$value)
                    }
                }
            }
            "ok"
        }, warning = function(w) {
            message("Warning: ", conditionMessage(w))
            invokeRestart("muffleWarning")
        }),
        interrupt = function(e) {
            .sbx$send(list(type = "error", id = .sbx$current, ename = "KeyboardInterrupt",
                           evalue = "Interrupted", traceback = list()))
            "error"
        },
        error = function(e) {
            call <- conditionCall(e)
            .sbx$send(list(type = "error", id = .sbx$current, ename = class(e)[1],
                           evalue = conditionMessage(e),
                           traceback = if (is.null(call)) list() else list(paste(deparse(call), collapse = " "))))
            "error"
        })
    .sbx$close_devices()
    for (f in .sbx$plot_files()) {
        if (file.info(f)$size > 0) {
            .sbx$send(list(type = "display_data", id = .sbx$current,
                           data = list(`image/png` = base64_enc(readBin(f, "raw", file.info(f)$size)),
                                       `text/plain` = "<plot>")))
        }
        unlink(f)
    }
    list(status = result, count = count)
}

# Files the cell wrote to the output directory (new or changed since the kernel last
# looked) come back as "file" events; what was seen is remembered (tmpfs timestamps lag
# the clock, so the cell's start time is not a reliable cut).
.sbx$seen <- new.env()
.sbx$report_files <- function(send = TRUE) {
    out <- Sys.getenv("SANDBOX_OUTPUT_DIR", "/sandbox/output")
    files <- sort(list.files(out, recursive = TRUE, full.names = TRUE))
    sent <- 0L
    for (f in files) {
        info <- file.info(f)
        if (is.na(info$size) || info$isdir) next
        stamp <- paste(format(as.numeric(info$mtime), digits = 20), info$size)
        if (identical(.sbx$seen[[f]], stamp)) next
        assign(f, stamp, envir = .sbx$seen)
        if (!send || sent >= 50L || info$size > 16 * 1024^2) next
        .sbx$send(list(type = "file", id = .sbx$current,
                       name = sub("^/sandbox/", "", f),
                       data = base64_enc(readBin(f, "raw", info$size))))
        sent <- sent + 1L
    }
}
.sbx$report_files(FALSE)

.sbx$send(list(type = "ready", pid = Sys.getpid(), language = "r",
               version = paste(R.version$major, R.version$minor, sep = ".")))
repeat {
    line <- tryCatch(readLines(.sbx$stdin, n = 1L, warn = FALSE), interrupt = function(e) character())
    if (length(line) == 0L) {
        if (isIncomplete(.sbx$stdin)) next
        break
    }
    if (!nzchar(trimws(line))) next
    request <- tryCatch(fromJSON(line, simplifyVector = FALSE), error = function(e) NULL)
    if (is.null(request)) {
        .sbx$send(list(type = "protocol_error", message = "request is not JSON"))
        next
    }
    if (identical(request$type, "shutdown")) break
    if (identical(request$type, "interrupt")) next
    if (!identical(request$type, "execute")) next
    .sbx$current <- request$id
    .sbx$send(list(type = "status", id = .sbx$current, state = "busy"))
    outcome <- .sbx$execute(if (is.null(request$code)) "" else request$code)
    tryCatch(.sbx$report_files(), error = function(e)
        message("sandbox: output files not collected: ", conditionMessage(e)))
    .sbx$send(list(type = "execute_reply", id = .sbx$current, status = outcome$status,
                   execution_count = outcome$count))
    .sbx$send(list(type = "status", id = .sbx$current, state = "idle"))
}
