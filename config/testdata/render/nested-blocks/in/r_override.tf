resource "aws_instance" "r" {
  network_interface {
    device_index = 0
  }

  ebs_block_device {
    device_name = "sdb"
  }

  lifecycle {
    prevent_destroy = true
  }

  provisioner "remote-exec" {
    inline = ["echo override"]
  }
}
