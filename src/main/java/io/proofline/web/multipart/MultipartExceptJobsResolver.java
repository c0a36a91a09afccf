package io.proofline.web.multipart;

import io.proofline.web.JobSubmissionReader;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.multipart.support.StandardServletMultipartResolver;

/**
 * The servlet container's multipart parsing (parts spooled to its own temporary files) for every multipart request
 * but a job submission: {@link JobSubmissionReader} streams a job's parts from the request itself, each witness
 * straight into the job's staging area and counted against the job's size limit as it arrives.
 */
final class MultipartExceptJobsResolver extends StandardServletMultipartResolver {

    @Override
    public boolean isMultipart(HttpServletRequest request) {
        return super.isMultipart(request) && !isJobSubmission(request);
    }

    static boolean isJobSubmission(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return "POST".equals(request.getMethod())
                && (path.equals(JobSubmissionReader.JOBS) || path.equals(JobSubmissionReader.JOBS + "/"));
    }
}
