package io.proofline.service.jobs;

import java.util.List;

/** One page of jobs, newest first. */
public record JobPage(List<JobRecord> jobs, int page, int size, long total) {
}
