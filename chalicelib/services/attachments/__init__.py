"""Attachments (issue 44): the papers behind a document, a journal entry or a bank statement line
(attachments.py). An attachment, as stored (store/keys/attachments.py):
    {id, recordType, recordId, bankAccountId? (a statement line's account), fileName, contentType,
     size, createdAt, createdBy}
Its bytes are in the attachments bucket (store/attachments.py), put there by the caller through a
presigned URL, under a key built from the company and ids (never stored: keys.attachment_object_key);
whether they arrived is asked of S3 on every read (status pending|uploaded)."""
