package io.proofline.web;

import java.util.List;

/** {@code GET /api/v1/jobs}: one page, newest first. */
record JobPageResponse(List<JobResponse> jobs, int page, int size, long total) {
}
